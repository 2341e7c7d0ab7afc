import { useState } from "preact/hooks";
import { api } from "../api";
import { useAction } from "../components/action";
import { Field } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import { WorkspacePicker } from "../components/workspace-picker";
import { when } from "../format";
import type { Me } from "../types";

type Credential = {
  id: string;
  provider: string;
  name: string | null;
  label: string;
  disabled: boolean;
  workspace_id: string | null;
  created_at: string;
  updated_at: string | null;
};

/** BYOK credentials, masked: add one, rotate its key in place, disable or delete it (managers). */
export function ByokPage({ me }: { me: Me }) {
  const [workspace, setWorkspace] = useState(me.manages ? "" : (me.workspaces[0]?.id ?? ""));
  const list = useLoad(() => api<{ data: Credential[] }>(`/byok${workspace ? `?workspace_id=${workspace}` : ""}`).then((r) => r.data), [workspace]);
  const { busy, error, run } = useAction(list.reload);
  const [provider, setProvider] = useState("");
  const [secret, setSecret] = useState("");
  const [rotating, setRotating] = useState<{ id: string; key: string } | null>(null);
  const add = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await api("/byok", { method: "POST", body: { provider, key: secret, ...(workspace ? { workspace_id: workspace } : {}) } });
      setSecret("");
    });
  };
  const rotate = (e: Event) => {
    e.preventDefault();
    if (rotating)
      void run(async () => {
        await api(`/byok/${rotating.id}`, { method: "PATCH", body: { key: rotating.key } });
        setRotating(null);
      });
  };
  return (
    <>
      <div class="page-head">
        <h1>BYOK credentials</h1>
        <div class="filters">
          <WorkspacePicker me={me} value={workspace} onChange={setWorkspace} allLabel={me.manages ? "All" : undefined} />
        </div>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      {me.manages && (
        <form class="form card" onSubmit={add} aria-label="Add a credential">
          <h2>Add a credential</h2>
          <div class="form-grid">
            <Field label="Provider slug" value={provider} onInput={setProvider} required />
            <Field label="Provider API key" type="password" value={secret} onInput={setSecret} required />
          </div>
          <div class="actions">
            <button type="submit" class="button button-primary" disabled={busy}>
              Add
            </button>
          </div>
        </form>
      )}
      {rotating && (
        <form class="form card" onSubmit={rotate} aria-label="Rotate the key">
          <h2>Rotate the key</h2>
          <Field label="New provider API key" type="password" value={rotating.key} onInput={(key) => setRotating({ ...rotating, key })} required />
          <div class="actions">
            <button type="submit" class="button button-primary" disabled={busy}>
              Save new key
            </button>
            <button type="button" class="button" onClick={() => setRotating(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <LoadState loading={list.loading && !list.data} error={list.error} what="credentials" />
      {list.data && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Key</th>
                <th scope="col">Status</th>
                <th scope="col">Changed</th>
                {me.manages && (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.data.map((c) => (
                <tr key={c.id}>
                  <td>{c.provider}</td>
                  <td>
                    <code>{c.label}</code>
                  </td>
                  <td>{c.disabled ? <span class="badge badge-bad">Disabled</span> : <span class="badge badge-ok">Active</span>}</td>
                  <td>{when(c.updated_at ?? c.created_at)}</td>
                  {me.manages && (
                    <td class="row-actions">
                      <button
                        type="button"
                        class="button button-small"
                        onClick={() => setRotating({ id: c.id, key: "" })}
                        aria-label={`Rotate ${c.provider} ${c.label}`}
                      >
                        Rotate
                      </button>
                      <button
                        type="button"
                        class="button button-small"
                        disabled={busy}
                        onClick={() => run(async () => void (await api(`/byok/${c.id}`, { method: "PATCH", body: { disabled: !c.disabled } })))}
                        aria-label={`${c.disabled ? "Enable" : "Disable"} ${c.provider} ${c.label}`}
                      >
                        {c.disabled ? "Enable" : "Disable"}
                      </button>
                      <button
                        type="button"
                        class="button button-small button-danger"
                        disabled={busy}
                        onClick={() =>
                          confirm(`Delete the ${c.provider} credential ${c.label}?`) && run(async () => void (await api(`/byok/${c.id}`, { method: "DELETE" })))
                        }
                        aria-label={`Delete ${c.provider} ${c.label}`}
                      >
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
              {list.data.length === 0 && (
                <tr>
                  <td colSpan={5} class="empty">
                    No credentials
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
