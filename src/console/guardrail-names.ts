import type { GuardrailStore } from "../store/store";

/** A guardrail as a key or member row names it. */
export type GuardrailRef = { id: string; name: string };

/** Every assignment is read at once: the console lists at most this many (an organization's keys and members are far fewer). */
const ALL = 10_000;

/** id → name for the guardrails the assignments name, each read once. */
async function namesOf(guardrails: GuardrailStore, ids: Iterable<string>): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const records = await Promise.all(unique.map((id) => guardrails.get(id)));
  return new Map(unique.flatMap((id, i) => (records[i] ? [[id, records[i]!.name] as const] : [])));
}

/** Which guardrail each key is assigned to (one per key), by key hash. */
export async function keyGuardrails(guardrails: GuardrailStore): Promise<Map<string, GuardrailRef>> {
  const rows = await guardrails.keyAssignments(null, 0, ALL);
  const names = await namesOf(
    guardrails,
    rows.map((r) => r.guardrailId),
  );
  return new Map(rows.map((r) => [r.keyHash, { id: r.guardrailId, name: names.get(r.guardrailId) ?? r.guardrailId }]));
}

/** Which guardrail each member of a workspace is assigned to (one per member and workspace), by user id. */
export async function memberGuardrails(guardrails: GuardrailStore, workspaceId: string): Promise<Map<string, GuardrailRef>> {
  const rows = (await guardrails.memberAssignments(null, 0, ALL)).filter((r) => r.workspaceId === workspaceId);
  const names = await namesOf(
    guardrails,
    rows.map((r) => r.guardrailId),
  );
  return new Map(rows.map((r) => [r.userId, { id: r.guardrailId, name: names.get(r.guardrailId) ?? r.guardrailId }]));
}
