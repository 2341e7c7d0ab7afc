import type { ReservationLease } from "./billing/admission";
import type { BudgetAlerts } from "./billing/budget-alerts";
import type { Catalog } from "./catalog/types";
import type { Config } from "./config";
import type { SecretBox } from "./crypto/secret-box";
import type { GenerationWriter } from "./gateway/generation-writer";
import type { RouterState } from "./gateway/routing/router-state";
import type { JobWakeups } from "./jobs/enqueue-wakeup";
import type { Logger } from "./logger";
import type { DestinationTargets } from "./observability/capture/destination-targets";
import type { DestinationReader, SenderRegistry } from "./observability/contract";
import type { HostLookup } from "./outbound/host-lookup";
import type { SharedState } from "./shared-state/types";
import type { Store } from "./store/store";
import type { RefusalRecorder } from "./telemetry/refusal-recorder";
import type { Telemetry } from "./telemetry/telemetry";

/** Everything a route module needs, built once by main (or by a test). */
export type AppContext = {
  config: Config;
  store: Store;
  /** what instances share: in memory for one, Redis for several */
  shared: SharedState;
  logger: Logger;
  /** epoch milliseconds; injected so tests can move time */
  clock: () => number;
  catalog: Catalog;
  router: RouterState;
  /** group-commits generation records before their answers end; await `settled()` before reading usage */
  generations: GenerationWriter;
  /** this instance's id and how long its reservations live without renewal */
  reservationLease: ReservationLease;
  /** access log, metrics, warn lines for upstream failures and circuits */
  telemetry: Telemetry;
  /** checks what committed generations spent against the alert thresholds of their keys and workspace budgets */
  budgetAlerts: BudgetAlerts;
  /** the refused requests' log (401, 402, 413, 429, 503), written in batches after their answers left */
  refusals: RefusalRecorder;
  /** heard after a job is enqueued and committed through `store`: wakes this process's job workers */
  jobWakeups: JobWakeups;
  /** heard when records with generations to forward were committed: the job workers' outbox pump drains them (not the runners: nothing was enqueued) */
  outboxWakeups: JobWakeups;
  /** seals BYOK secrets under the master key; built from config when absent (see secretBoxOf) */
  secrets?: SecretBox;
  /** resolves the hosts of user-supplied URLs (webhooks); the system resolver when absent, a fake one in tests */
  lookup?: HostLookup;
  /** whom a workspace's enabled destinations take, read when a request is planned (a request none takes is not captured) */
  destinationTargets: DestinationTargets;
  /** observability forwarding (issue 18): the workspaces' destinations (config opened) and the sender of each type */
  observability: { destinations: DestinationReader; senders: SenderRegistry };
};
