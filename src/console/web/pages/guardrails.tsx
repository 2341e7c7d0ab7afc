import { useState } from "preact/hooks";
import { api } from "../api";
import { useAction } from "../components/action";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import { WorkspacePicker } from "../components/workspace-picker";
import type { ConsoleGuardrail, Me } from "../types";
import { GuardrailAssignments } from "./guardrail-assign";
import { GuardrailForm, type GuardrailFormValues } from "./guardrail-form";
import { budgetText, filtersText, ListLines, policyText } from "./guardrail-summary";

type Listing = { default: ConsoleGuardrail; data: ConsoleGuardrail[] };
type Mode = { kind: "list" } | { kind: "create" } | { kind: "edit"; g: ConsoleGuardrail } | { kind: "assign"; id: string };

function AssignedTo({ g }: { g: ConsoleGuardrail }) {
  const names = [...g.keys.map((k) => `key ${k.name}`), ...g.members.map((m) => m.email ?? m.name ?? m.user_id)];
  return names.length ? <span class="break">{names.join(", ")}</span> : <span class="muted">Nothing yet</span>;
}

/**
 * A workspace's guardrails: its default one (applies to every key of the workspace), the others
 * with what they are assigned to; managers create, edit, delete and assign them through the
 * management API's services (the same checks, errors and audit events).
 */
export function GuardrailsPage({ me }: { me: Me }) {
  const [workspace, setWorkspace] = useState(me.workspaces.find((w) => w.is_default)?.id ?? me.workspaces[0]?.id ?? "");
  const listing = useLoad(() => api<Listing>(`/guardrails?workspace_id=${encodeURIComponent(workspace)}`), [workspace]);
  const [mode, setMode] = useState<Mode>({ kind: "list" });
  const [saved, setSaved] = useState<string | null>(null);
  const { busy, error, run } = useAction(listing.reload);
  const save = (path: string, method: "POST" | "PATCH", body: GuardrailFormValues, what: string) =>
    run(async () => {
      const res = await api<{ data: ConsoleGuardrail }>(path, { method, body });
      setSaved(`Guardrail “${res.data.name}” ${what}`);
      setMode({ kind: "list" });
    });
  const remove = (g: ConsoleGuardrail) => {
    if (!confirm(`Delete the guardrail "${g.name}"? Its keys and members are no longer held by it.`)) return;
    setSaved(null);
    void run(async () => {
      await api(`/guardrails/${encodeURIComponent(g.id)}`, { method: "DELETE" });
      setSaved(`Guardrail “${g.name}” deleted`);
    });
  };
  const assigning = mode.kind === "assign" ? listing.data?.data.find((g) => g.id === mode.id) : undefined;
  const def = listing.data?.default;
  return (
    <>
      <div class="page-head">
        <h1>Guardrails</h1>
        <div class="filters">
          <WorkspacePicker
            me={me}
            value={workspace}
            onChange={(id) => {
              setWorkspace(id);
              setMode({ kind: "list" });
            }}
          />
          {me.manages && mode.kind === "list" && (
            <button
              type="button"
              class="button button-primary"
              onClick={() => {
                setSaved(null);
                setMode({ kind: "create" });
              }}
            >
              New guardrail
            </button>
          )}
        </div>
      </div>
      {!me.manages && <p class="muted">Organization owners and admins change guardrails; you see those of your workspaces.</p>}
      {error && <Notice kind="error">{error}</Notice>}
      {saved && <Notice kind="ok">{saved}</Notice>}
      {mode.kind === "create" && (
        <section class="card">
          <h2>New guardrail</h2>
          <GuardrailForm
            label="New guardrail"
            submitLabel="Create"
            busy={busy}
            onSubmit={(body) => save("/guardrails", "POST", { ...body, workspace_id: workspace }, "created")}
            onCancel={() => setMode({ kind: "list" })}
          />
        </section>
      )}
      {mode.kind === "edit" && (
        <section class="card">
          <h2>Edit “{mode.g.name}”</h2>
          <GuardrailForm
            label={`Edit ${mode.g.name}`}
            initial={mode.g}
            submitLabel="Save"
            busy={busy}
            onSubmit={(body) => save(`/guardrails/${encodeURIComponent(mode.g.id)}`, "PATCH", body, "saved")}
            onCancel={() => setMode({ kind: "list" })}
          />
        </section>
      )}
      {assigning && <GuardrailAssignments g={assigning} onChanged={listing.reload} onClose={() => setMode({ kind: "list" })} />}
      <LoadState loading={listing.loading && !listing.data} error={listing.error} what="guardrails" />
      {def && (
        <section class="card" aria-label="Default guardrail">
          <h2>{def.name}</h2>
          <p>Applies to every key of the workspace, with the key's and its creator's own guardrails.</p>
          <dl class="record">
            <div>
              <dt>Budget</dt>
              <dd>{budgetText(def)}</dd>
            </div>
            <div>
              <dt>Models and providers</dt>
              <dd>
                <ListLines g={def} />
              </dd>
            </div>
            <div>
              <dt>Data policy</dt>
              <dd>{policyText(def)}</dd>
            </div>
            <div>
              <dt>Content filters</dt>
              <dd>{filtersText(def)}</dd>
            </div>
          </dl>
          {me.manages && mode.kind === "list" && (
            <div class="actions">
              <button type="button" class="button" onClick={() => setMode({ kind: "edit", g: def })}>
                Edit the default guardrail
              </button>
            </div>
          )}
        </section>
      )}
      {listing.data && (
        <div class="table-wrap">
          <table class="guardrails">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Budget</th>
                <th scope="col">Models and providers</th>
                <th scope="col">Data policy</th>
                <th scope="col">Content filters</th>
                <th scope="col">Assigned to</th>
                {me.manages && (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {listing.data.data.map((g) => (
                <tr key={g.id}>
                  <th scope="row">
                    {g.name}
                    {g.description && <small class="muted block">{g.description}</small>}
                  </th>
                  <td data-label="Budget">{budgetText(g)}</td>
                  <td data-label="Models and providers">
                    <ListLines g={g} />
                  </td>
                  <td data-label="Data policy">{policyText(g)}</td>
                  <td data-label="Content filters">{filtersText(g)}</td>
                  <td data-label="Assigned to">
                    <AssignedTo g={g} />
                  </td>
                  {me.manages && (
                    <td class="row-actions">
                      <button type="button" class="button button-small" aria-label={`Edit ${g.name}`} onClick={() => setMode({ kind: "edit", g })}>
                        Edit
                      </button>
                      <button type="button" class="button button-small" aria-label={`Assign ${g.name}`} onClick={() => setMode({ kind: "assign", id: g.id })}>
                        Assign
                      </button>
                      <button type="button" class="button button-small button-danger" aria-label={`Delete ${g.name}`} disabled={busy} onClick={() => remove(g)}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
              {listing.data.data.length === 0 && (
                <tr>
                  <td colSpan={7} class="empty">
                    No guardrails in this workspace besides its default
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
