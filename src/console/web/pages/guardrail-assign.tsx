import { useState } from "preact/hooks";
import { api } from "../api";
import { useAction } from "../components/action";
import { Select } from "../components/field";
import { useLoad } from "../components/load";
import { Notice } from "../components/notice";
import type { ConsoleGuardrail, Key } from "../types";

type Member = { user_id: string; email: string | null; name: string | null };

const personOf = (m: Member) => m.email ?? m.name ?? m.user_id;

/**
 * What a guardrail is assigned to, and the managers' assign and unassign: a key or a member holds
 * one guardrail, so assigning one held by another guardrail moves it here.
 */
export function GuardrailAssignments({ g, onChanged, onClose }: { g: ConsoleGuardrail; onChanged: () => void; onClose: () => void }) {
  const keys = useLoad(() => api<{ data: Key[] }>(`/keys?workspace_id=${encodeURIComponent(g.workspace_id ?? "")}`).then((r) => r.data), [g.workspace_id]);
  const members = useLoad(
    () => api<{ data: Member[] }>(`/workspaces/${encodeURIComponent(g.workspace_id ?? "")}/members`).then((r) => r.data),
    [g.workspace_id],
  );
  const { busy, error, run } = useAction(() => {
    keys.reload();
    onChanged();
  });
  const [key, setKey] = useState("");
  const [member, setMember] = useState("");
  const base = `/guardrails/${encodeURIComponent(g.id)}/assignments`;
  const assignedKeys = new Set(g.keys.map((k) => k.hash));
  const assignedMembers = new Set(g.members.map((m) => m.user_id));
  const keyChoices = (keys.data ?? []).filter((k) => !k.is_management && !assignedKeys.has(k.hash));
  const memberChoices = (members.data ?? []).filter((m) => !assignedMembers.has(m.user_id));
  const change = (path: string, body: unknown) => run(async () => void (await api(path, { method: "POST", body })));
  return (
    <section class="card" aria-label={`Assignments of ${g.name}`}>
      <h2>Assignments of “{g.name}”</h2>
      <p class="muted">A key or a member holds one guardrail: assigning one moves it from any other. A member's guardrail covers every key they create.</p>
      {error && <Notice kind="error">{error}</Notice>}
      <h3>Keys</h3>
      <ul class="plain">
        {g.keys.map((k) => (
          <li key={k.hash}>
            {k.name} <code>{k.label}</code>{" "}
            <button
              type="button"
              class="button button-small"
              disabled={busy}
              aria-label={`Unassign key ${k.name}`}
              onClick={() => change(`${base}/keys/remove`, { key_hashes: [k.hash] })}
            >
              Unassign
            </button>
          </li>
        ))}
        {g.keys.length === 0 && <li class="muted">No keys</li>}
      </ul>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (key) void change(`${base}/keys`, { key_hashes: [key] }).then(() => setKey(""));
        }}
      >
        <div class="form-grid">
          <Select label="Assign a key" value={key} onChange={setKey}>
            <option value="">Choose a key</option>
            {keyChoices.map((k) => (
              <option key={k.hash} value={k.hash}>
                {k.name}
                {k.guardrail ? ` (now: ${k.guardrail.name})` : ""}
              </option>
            ))}
          </Select>
        </div>
        <div class="actions">
          <button type="submit" class="button" disabled={busy || !key}>
            Assign key
          </button>
        </div>
      </form>
      <h3>Members</h3>
      <ul class="plain">
        {g.members.map((m) => (
          <li key={m.user_id}>
            <span class="break">{personOf(m)}</span>{" "}
            <button
              type="button"
              class="button button-small"
              disabled={busy}
              aria-label={`Unassign member ${personOf(m)}`}
              onClick={() => change(`${base}/members/remove`, { member_user_ids: [m.user_id] })}
            >
              Unassign
            </button>
          </li>
        ))}
        {g.members.length === 0 && <li class="muted">No members</li>}
      </ul>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (member) void change(`${base}/members`, { member_user_ids: [member] }).then(() => setMember(""));
        }}
      >
        <div class="form-grid">
          <Select label="Assign a member" value={member} onChange={setMember}>
            <option value="">Choose a member</option>
            {memberChoices.map((m) => (
              <option key={m.user_id} value={m.user_id}>
                {personOf(m)}
              </option>
            ))}
          </Select>
        </div>
        <div class="actions">
          <button type="submit" class="button" disabled={busy || !member}>
            Assign member
          </button>
          <button type="button" class="button" onClick={onClose}>
            Done
          </button>
        </div>
      </form>
    </section>
  );
}
