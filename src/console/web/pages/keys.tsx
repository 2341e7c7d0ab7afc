import { useState } from "preact/hooks";
import { ApiFailure, api } from "../api";
import { CopyButton } from "../components/copy-button";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import { count, usd, when } from "../format";
import { href } from "../router";
import type { Key, Me } from "../types";
import { KeyForm, type KeyFormValues } from "./key-form";

/** spend in the key's current window, the figure its limit applies to */
function windowUsage(k: Key): number {
  return k.limit_reset === "daily" ? k.usage_daily : k.limit_reset === "weekly" ? k.usage_weekly : k.limit_reset === "monthly" ? k.usage_monthly : k.usage;
}

function LimitBar({ k }: { k: Key }) {
  if (k.limit === null) return <span class="muted">No limit · {usd(k.usage)} spent</span>;
  const used = windowUsage(k);
  // less left than its typical request: the next one will most likely be refused (402)
  if (k.limit_reached)
    return (
      <div class="limit limit-reached">
        <span class="badge badge-bad">Limit reached</span>
        <span>
          {usd(used)} of {usd(k.limit)}
          {k.limit_reset ? ` ${k.limit_reset}` : ""}
          {k.limit_remaining !== null && k.limit_remaining > 0 ? ` · ${usd(k.limit_remaining)} left` : ""}
        </span>
      </div>
    );
  return (
    <div class="limit">
      <meter min={0} max={k.limit || 1} value={used} high={k.limit * 0.8} optimum={0} aria-label={`${k.name}: ${usd(used)} of ${usd(k.limit)}`} />
      <span>
        {usd(used)} of {usd(k.limit)}
        {k.limit_reset ? ` ${k.limit_reset}` : ""}
      </span>
    </div>
  );
}

/** "60 rpm · 100,000 tpm · 4 at once"; unset ones fall back to the workspace's */
function rateLimits(k: Key): string {
  const parts = [
    k.rate_limit.rpm === null ? null : `${count(k.rate_limit.rpm)} rpm`,
    k.rate_limit.tpm === null ? null : `${count(k.rate_limit.tpm)} tpm`,
    k.rate_limit.concurrency === null ? null : `${count(k.rate_limit.concurrency)} at once`,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "Workspace's";
}

function Status({ k }: { k: Key }) {
  if (k.disabled) return <span class="badge badge-bad">Disabled</span>;
  if (k.is_management) return <span class="badge badge-mgmt">Management</span>;
  if (k.limit_reached) return <span class="badge badge-bad">Limit reached</span>;
  return <span class="badge badge-ok">Active</span>;
}

export function KeysPage({ me }: { me: Me }) {
  const keys = useLoad(() => api<{ data: Key[] }>("/keys").then((r) => r.data), []);
  const [mode, setMode] = useState<{ kind: "list" } | { kind: "create" } | { kind: "edit"; key: Key }>({ kind: "list" });
  const [created, setCreated] = useState<{ name: string; raw: string; rotated?: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const workspaceName = (id: string) => me.workspaces.find((w) => w.id === id)?.name ?? id;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      keys.reload();
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const create = (body: KeyFormValues) =>
    run(async () => {
      const res = await api<{ data: Key; key: string }>("/keys", { method: "POST", body });
      setCreated({ name: res.data.name, raw: res.key });
      setMode({ kind: "list" });
    });
  const update = (hash: string, body: KeyFormValues) =>
    run(async () => {
      await api(`/keys/${hash}`, { method: "PATCH", body });
      setMode({ kind: "list" });
    });
  const toggle = (k: Key) => run(async () => void (await api(`/keys/${k.hash}`, { method: "PATCH", body: { disabled: !k.disabled } })));
  const rotate = (k: Key) => {
    if (!confirm(`Rotate the key "${k.name}"? It gets a new secret; the old one keeps working for a day.`)) return;
    void run(async () => {
      const res = await api<{ data: Key; key: string }>(`/keys/${k.hash}/rotate`, { method: "POST", body: {} });
      setCreated({ name: res.data.name, raw: res.key, rotated: true });
    });
  };
  const remove = (k: Key) => {
    if (confirm(`Delete the key "${k.name}"? Requests with it will fail.`)) void run(async () => void (await api(`/keys/${k.hash}`, { method: "DELETE" })));
  };

  return (
    <>
      <div class="page-head">
        <h1>API keys</h1>
        {mode.kind === "list" && (
          <button
            type="button"
            class="button button-primary"
            onClick={() => {
              setCreated(null);
              setMode({ kind: "create" });
            }}
          >
            Create key
          </button>
        )}
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      {created && (
        <section class="card reveal" aria-labelledby="new-key-title">
          <h2 id="new-key-title">{created.rotated ? `New secret of “${created.name}”` : `Key “${created.name}” created`}</h2>
          <p>
            Copy it now: it is shown only once.
            {created.rotated ? " The old secret keeps working for a day, then stops." : ""}
          </p>
          <p class="secret">
            <code data-copy-source>{created.raw}</code>
          </p>
          <div class="actions">
            <CopyButton text={created.raw} label="Copy key" />
            <button type="button" class="button" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </section>
      )}
      {mode.kind === "create" && (
        <section class="card" aria-label="New key">
          <h2>New key</h2>
          <KeyForm me={me} submitLabel="Create" busy={busy} onSubmit={create} onCancel={() => setMode({ kind: "list" })} />
        </section>
      )}
      {mode.kind === "edit" && (
        <section class="card" aria-label={`Edit ${mode.key.name}`}>
          <h2>Edit “{mode.key.name}”</h2>
          <KeyForm
            me={me}
            initial={mode.key}
            submitLabel="Save"
            busy={busy}
            onSubmit={(body) => update(mode.key.hash, body)}
            onCancel={() => setMode({ kind: "list" })}
          />
        </section>
      )}
      <LoadState loading={keys.loading && !keys.data} error={keys.error} what="keys" />
      {keys.data && (
        <div class="table-wrap">
          <table class="keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Workspace</th>
                <th scope="col">Usage and limit</th>
                <th scope="col">Rate limits</th>
                <th scope="col">Guardrail</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.hash}>
                  <td data-label="Name">{k.name}</td>
                  <td data-label="Key">
                    <code>{k.label}</code>
                  </td>
                  <td data-label="Workspace">{workspaceName(k.workspace_id)}</td>
                  <td data-label="Usage">{k.is_management ? <span class="muted">Not for inference</span> : <LimitBar k={k} />}</td>
                  <td data-label="Rate limits">{k.is_management ? "—" : rateLimits(k)}</td>
                  <td data-label="Guardrail">
                    {k.is_management ? "—" : k.guardrail ? <a href={href("guardrails")}>{k.guardrail.name}</a> : <span class="muted">None</span>}
                  </td>
                  <td data-label="Expires">{k.expires_at ? when(k.expires_at) : "Never"}</td>
                  <td data-label="Status">
                    <Status k={k} />
                  </td>
                  {k.is_management ? (
                    <td class="row-actions">
                      <span class="muted">API only</span>
                    </td>
                  ) : (
                    <td class="row-actions">
                      <button type="button" class="button button-small" onClick={() => setMode({ kind: "edit", key: k })} aria-label={`Edit ${k.name}`}>
                        Edit
                      </button>
                      <button
                        type="button"
                        class="button button-small"
                        onClick={() => toggle(k)}
                        disabled={busy}
                        aria-label={`${k.disabled ? "Enable" : "Disable"} ${k.name}`}
                      >
                        {k.disabled ? "Enable" : "Disable"}
                      </button>
                      <button type="button" class="button button-small" onClick={() => rotate(k)} disabled={busy} aria-label={`Rotate ${k.name}`}>
                        Rotate
                      </button>
                      <button type="button" class="button button-small button-danger" onClick={() => remove(k)} disabled={busy} aria-label={`Delete ${k.name}`}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
              {keys.data.length === 0 && (
                <tr>
                  <td colSpan={9} class="empty">
                    No keys yet
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
