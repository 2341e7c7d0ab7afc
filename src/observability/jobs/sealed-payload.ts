import type { SecretBox } from "../../crypto/secret-box";
import { PermanentFailure } from "../../jobs/job-errors";
import type { ObservedGeneration } from "../contract";
import { openObserved } from "./observed-payload";

/** Opens a sealed generation of a job payload; one this gateway's master key cannot open is dead at once. */
export function openPayloadGeneration(secrets: Pick<SecretBox, "openOnce">, sealed: unknown, what: string): ObservedGeneration {
  if (typeof sealed !== "string") throw new PermanentFailure(`not a ${what} payload`);
  try {
    return openObserved(secrets, sealed);
  } catch {
    // sealed under another master key, or damaged: no attempt will open it
    throw new PermanentFailure(`the ${what} payload cannot be opened with this gateway's master key`);
  }
}
