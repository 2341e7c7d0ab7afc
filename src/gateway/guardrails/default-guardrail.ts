import { createHash } from "node:crypto";

/** ids already derived: every request of a workspace asks for its default guardrail */
const derived = new Map<string, string>();

/**
 * The id of a workspace's default guardrail (OpenRouter's `default_guardrail_id`): never empty,
 * derived from the workspace id, so it exists before the guardrail is stored (PATCH stores it). A
 * UUID of version 8 (RFC 9562, custom) made of the SHA-256 of the workspace id.
 */
export function defaultGuardrailId(workspaceId: string): string {
  const known = derived.get(workspaceId);
  if (known) return known;
  const h = createHash("sha256").update(`default-guardrail:${workspaceId}`).digest("hex");
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const id = `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  if (derived.size >= 10_000) derived.clear();
  derived.set(workspaceId, id);
  return id;
}

/** The default guardrail's name, derived from its workspace's (a PATCH may not change it). */
export const defaultGuardrailName = (workspace: { name: string }) => `Default guardrail of ${workspace.name}`;
