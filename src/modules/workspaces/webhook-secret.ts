import type { ChangeOrigin } from "../../audit/origin";
import { secretBoxOf } from "../../crypto/secret-box";
import { newWebhookSecret, ROTATION_OVERLAP_MS } from "../../jobs/webhooks/signing-secrets";
import type { WebhookSecretDeps } from "../../jobs/webhooks/workspace-signing-secrets";
import { findWorkspace, recordWorkspaceChange } from "./service";

/**
 * Creates the workspace's signing secret, or replaces it: the replaced one keeps signing for
 * ROTATION_OVERLAP_MS. The plaintext is in this answer only; the store keeps it sealed.
 */
export async function rotateWebhookSecret(deps: WebhookSecretDeps, origin: ChangeOrigin, ref: string): Promise<{ data: { secret: string } }> {
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
    // the sealed values differ whenever the secret does: the event shows that it changed, never either value
    const secrets = (sealedSecret: string | null) => ({ webhook_secret: sealedSecret });
    await recordWorkspaceChange(tx, now, origin, "workspace.update", ws, ws, {
      previousSecrets: secrets(existing?.sealedSecret ?? null),
      secrets: secrets(sealed),
    });
  });
  return { data: { secret } };
}
