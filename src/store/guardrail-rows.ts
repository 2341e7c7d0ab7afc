/** GuardrailRecord <-> rows, shared by both dialects: the rules travel as JSON text. */
import type { ApplyingGuardrail, GuardrailPatch, GuardrailRecord } from "./guardrail-store";

type GuardrailRow = Omit<GuardrailRecord, "rules"> & { rules: string; seq?: number };

export const guardrailRecord = ({ seq: _seq, ...row }: GuardrailRow): GuardrailRecord => ({ ...row, rules: JSON.parse(row.rules) as GuardrailRecord["rules"] });

export const guardrailRow = (g: GuardrailRecord) => ({ ...g, rules: JSON.stringify(g.rules) });

/** a patch's columns: only what it sets, the rules as JSON */
export function guardrailPatchRow(patch: GuardrailPatch, now: number) {
  const { rules, ...rest } = patch;
  return { ...rest, ...(rules === undefined ? {} : { rules: JSON.stringify(rules) }), updatedAt: now };
}

/** the found guardrails in the order they combine: workspace default, member, key */
export function applyingOf(
  found: Map<string, GuardrailRecord>,
  defaultId: string,
  memberId: string | undefined,
  keyId: string | undefined,
): ApplyingGuardrail[] {
  const out: ApplyingGuardrail[] = [];
  const add = (scope: ApplyingGuardrail["scope"], id: string | undefined) => {
    const guardrail = id === undefined ? undefined : found.get(id);
    if (guardrail) out.push({ scope, guardrail });
  };
  add("workspace", defaultId);
  add("member", memberId);
  add("key", keyId);
  return out;
}
