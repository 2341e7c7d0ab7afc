import { PermanentFailure } from "../../jobs/job-errors";
import type { SecretBox } from "../../crypto/secret-box";

/**
 * A job payload that may carry prompts and completions: stored as `{sealed}`, the JSON sealed
 * with the secret box, so the jobs table holds no content in clear.
 */
export type SealedPayload = { sealed: string };

export const sealPayload = (secrets: Pick<SecretBox, "sealSync">, value: unknown): SealedPayload => ({ sealed: secrets.sealSync(JSON.stringify(value)) });

export async function openPayload<T>(secrets: Pick<SecretBox, "open">, payload: unknown, what: string): Promise<T> {
  const sealed = (payload as Partial<SealedPayload> | null)?.sealed;
  if (typeof sealed !== "string") throw new PermanentFailure(`not a sealed ${what} payload`);
  try {
    return JSON.parse(await secrets.open(sealed)) as T;
  } catch {
    // sealed under another master key, or damaged: no attempt will open it
    throw new PermanentFailure(`the ${what} payload cannot be opened with this gateway's master key`);
  }
}
