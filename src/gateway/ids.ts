import { randomBytes } from "node:crypto";

/** Generation ids look like OpenRouter's: `gen-<unix seconds>-<random>`. */
export function newGenerationId(nowMs: number): string {
  return `gen-${Math.floor(nowMs / 1000)}-${randomBytes(10).toString("base64url")}`;
}
