import type { Config } from "../../config";
import { secretBoxOf, type SecretBox } from "../../crypto/secret-box";
import { newWebhookSecret, ROTATION_OVERLAP_MS, secretsInForce } from "../../jobs/webhooks/signing-secrets";
import type { Store } from "../../store/store";
import { findWorkspace } from "./service";

export type WebhookSecretDeps = { store: Store; clock: () => number; config: Pick<Config, "secretKey" | "databasePath">; secrets?: SecretBox };

/**
 * Creates the workspace's signing secret, or replaces it: the replaced one keeps signing for
 * ROTATION_OVERLAP_MS. The plaintext is in this answer only; the store keeps it sealed.
 */
export async function rotateWebhookSecret(deps: WebhookSecretDeps, ref: string): Promise<{ data: { secret: string } }> {
  const secret = newWebhookSecret();
  const sealed = await secretBoxOf(deps).seal(secret);
  await deps.store.transaction(async (tx) => {
    const ws = await findWorkspace(tx, ref);
    const existing = await tx.webhookSecrets.get(ws.id);
    const now = deps.clock();
    await tx.webhookSecrets.put({
      workspaceId: ws.id,
      sealedSecret: sealed,
      sealedPreviousSecret: existing?.sealedSecret ?? null,
      previousValidUntil: existing ? now + ROTATION_OVERLAP_MS : null,
      rotatedAt: now,
    });
  });
  return { data: { secret } };
}

/** The plaintext secrets that sign a delivery of the workspace now, newest first; none: unsigned. */
export async function webhookSigningSecrets(deps: WebhookSecretDeps, workspaceId: string): Promise<string[]> {
  const row = await deps.store.webhookSecrets.get(workspaceId);
  if (!row) return [];
  const sealed = secretsInForce({ current: row.sealedSecret, previous: row.sealedPreviousSecret, previousUntil: row.previousValidUntil }, deps.clock());
  const box = secretBoxOf(deps);
  return Promise.all(sealed.map((s) => box.open(s)));
}
