import type { GuardrailStore } from "../store/store";

/** A guardrail as a key or member row names it. */
export type GuardrailRef = { id: string; name: string };

/** Every assignment is read at once: the console lists at most this many (an organization's keys and members are far fewer). */
const ALL = 10_000;

/** The assignment rows as `subject → guardrail` (the subject: a key hash or a user id), each guardrail's name read once. */
async function refsBy<R extends { guardrailId: string }>(
  guardrails: GuardrailStore,
  rows: readonly R[],
  subject: (r: R) => string,
): Promise<Map<string, GuardrailRef>> {
  const ids = [...new Set(rows.map((r) => r.guardrailId))];
  const records = await Promise.all(ids.map((id) => guardrails.get(id)));
  const names = new Map(ids.map((id, i) => [id, records[i]?.name ?? id]));
  return new Map(rows.map((r) => [subject(r), { id: r.guardrailId, name: names.get(r.guardrailId)! }]));
}

/** Which guardrail each key is assigned to (one per key), by key hash. */
export async function keyGuardrails(guardrails: GuardrailStore): Promise<Map<string, GuardrailRef>> {
  return refsBy(guardrails, await guardrails.keyAssignments(null, 0, ALL), (r) => r.keyHash);
}

/** Which guardrail each member of a workspace is assigned to (one per member and workspace), by user id. */
export async function memberGuardrails(guardrails: GuardrailStore, workspaceId: string): Promise<Map<string, GuardrailRef>> {
  const rows = (await guardrails.memberAssignments(null, 0, ALL)).filter((r) => r.workspaceId === workspaceId);
  return refsBy(guardrails, rows, (r) => r.userId);
}
