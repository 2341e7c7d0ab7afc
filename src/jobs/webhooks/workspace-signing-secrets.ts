import type { Config } from "../../config";
import { type SecretBox, secretBoxOf } from "../../crypto/secret-box";
import type { Store } from "../../store/store";
import { secretsInForce } from "./signing-secrets";

export type WebhookSecretDeps = { store: Store; clock: () => number; config: Pick<Config, "secretKey" | "databasePath">; secrets?: SecretBox };

/** The plaintext secrets that sign a delivery of the workspace now, newest first; none: unsigned. */
export async function webhookSigningSecrets(deps: WebhookSecretDeps, workspaceId: string): Promise<string[]> {
  const row = await deps.store.webhookSecrets.get(workspaceId);
  if (!row) return [];
  const sealed = secretsInForce({ current: row.sealedSecret, previous: row.sealedPreviousSecret, previousUntil: row.previousValidUntil }, deps.clock());
  const box = secretBoxOf(deps);
  return Promise.all(sealed.map((s) => box.open(s)));
}
