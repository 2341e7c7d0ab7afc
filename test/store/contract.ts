/**
 * The store contract: one suite that every dialect (src/store/sqlite, src/store/pg) passes, so
 * callers can rely on identical behaviour. Each test gets a fresh, empty, migrated store from
 * `open`. Sections live in ./contract/.
 */
import { describe } from "bun:test";
import type { Store } from "../../src/store/store";
import { accountsContract } from "./contract/accounts";
import { analyticsContract } from "./contract/analytics";
import { auditContract } from "./contract/audit";
import { budgetContract } from "./contract/budgets";
import { catalogContract } from "./contract/catalog";
import { destinationsContract } from "./contract/destinations";
import { type OpenStore, useStore } from "./contract/fixtures";
import { generationListContract } from "./contract/generation-list";
import { generationOutboxContract } from "./contract/generation-outbox";
import { guardrailContract } from "./contract/guardrails";
import { jobContract } from "./contract/jobs";
import { keyRotationContract } from "./contract/key-rotation";
import { moneyContract } from "./contract/money";
import { reservationRaceContract } from "./contract/reservation-race";
import { responseCacheContract } from "./contract/response-cache";
import { responsesContract } from "./contract/responses";
import { scimGroupsContract } from "./contract/scim-groups";
import { signInContract } from "./contract/sign-in";
import { transactionContract } from "./contract/transactions";
import { videoJobsContract } from "./contract/video-jobs";
import { webhooksContract } from "./contract/webhooks";

export type { OpenStore };

export function storeContract(label: Store["dialect"], open: OpenStore): void {
  describe(`store contract: ${label}`, () => {
    const store = useStore(open);
    accountsContract(store);
    catalogContract(store);
    moneyContract(store);
    reservationRaceContract(store);
    generationListContract(store);
    responsesContract(store);
    budgetContract(store);
    transactionContract(store, label);
    jobContract(store);
    webhooksContract(store);
    videoJobsContract(store);
    destinationsContract(store);
    signInContract(store);
    generationOutboxContract(store);
    guardrailContract(store);
    responseCacheContract(store);
    auditContract(store);
    scimGroupsContract(store);
    analyticsContract(store);
    keyRotationContract(store);
  });
}
