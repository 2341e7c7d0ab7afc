import { useState } from "preact/hooks";
import { api } from "../api";
import { useAction } from "../components/action";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import { WorkspacePicker } from "../components/workspace-picker";
import { count } from "../format";
import type { ConsoleCache, Me } from "../types";

/** gateway.yaml's lines that turn the cache on (docs/configuration.md, "Response cache") */
const ENABLE_SNIPPET = `response_cache:
  enabled: true
  ttl_seconds: 300
  default: "off"
  max_entry_bytes: 1048576`;

function bytes(n: number): string {
  if (n < 1024) return `${count(n)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The response cache of a workspace: gateway.yaml's settings (read-only: the operator's file), how
 * many answers it holds, and for managers a purge (DELETE /api/v1/cache of the workspace, audited).
 */
export function CachePage({ me }: { me: Me }) {
  const [workspace, setWorkspace] = useState(me.workspaces.find((w) => w.is_default)?.id ?? me.workspaces[0]?.id ?? "");
  const cache = useLoad(() => api<{ data: ConsoleCache }>(`/cache?workspace_id=${encodeURIComponent(workspace)}`).then((r) => r.data), [workspace]);
  const [purged, setPurged] = useState<number | null>(null);
  const { busy, error, run } = useAction(cache.reload);
  const name = me.workspaces.find((w) => w.id === workspace)?.name ?? workspace;
  const purge = () => {
    if (!confirm(`Purge the response cache of ${name}? Every answer it keeps is deleted; the next identical requests go upstream again.`)) return;
    setPurged(null);
    void run(async () => setPurged((await api<{ deleted: number }>(`/cache?workspace_id=${encodeURIComponent(workspace)}`, { method: "DELETE" })).deleted));
  };
  const c = cache.data;
  return (
    <>
      <div class="page-head">
        <h1>Response cache</h1>
        <div class="filters">
          <WorkspacePicker
            me={me}
            value={workspace}
            onChange={(id) => {
              setWorkspace(id);
              setPurged(null);
            }}
          />
        </div>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      {purged !== null && (
        <Notice kind="ok">
          Purged {count(purged)} entries of {name}
        </Notice>
      )}
      <LoadState loading={cache.loading && !c} error={cache.error} what="the response cache" />
      {c && !c.enabled && (
        <section class="card" aria-label="The cache is off">
          <Notice kind="warn">The response cache is off: no answer is stored, and none is served from it.</Notice>
          <p>To turn it on, add this to gateway.yaml, then reload the gateway (SIGHUP) or restart it:</p>
          <pre class="snippet">
            <code>{ENABLE_SNIPPET}</code>
          </pre>
          <p class="muted">
            An answer is served again for ttl_seconds. With default "off" a request asks for the cache with the header <code>x-gateway-cache: on</code>; with
            "on" every request is cached unless it sends <code>x-gateway-cache: off</code>.
          </p>
        </section>
      )}
      {c && (
        <section class="card" aria-label={`Entries of ${name}`}>
          <h2>Entries of {name}</h2>
          <dl class="record">
            <div>
              <dt>Entries</dt>
              <dd data-testid="cache-entries">{count(c.entries)}</dd>
            </div>
            <div>
              <dt>Size</dt>
              <dd>{bytes(c.bytes)}</dd>
            </div>
          </dl>
          {me.manages && (
            <div class="actions">
              <button type="button" class="button button-danger" disabled={busy} onClick={purge}>
                Purge
              </button>
            </div>
          )}
        </section>
      )}
      {c && (
        <section class="card" aria-label="Response cache settings">
          <h2>Settings</h2>
          <p class="muted">From gateway.yaml (response_cache), for every workspace; read-only here.</p>
          <dl class="record">
            <div>
              <dt>Status</dt>
              <dd>{c.enabled ? <span class="badge badge-ok">Enabled</span> : <span class="badge badge-bad">Disabled</span>}</dd>
            </div>
            <div>
              <dt>Time to live</dt>
              <dd>{count(c.ttl_seconds)} s</dd>
            </div>
            <div>
              <dt>Default mode</dt>
              <dd>{c.default_mode === "on" ? "On: every request is cached unless it opts out" : "Off: only requests that ask are cached"}</dd>
            </div>
            <div>
              <dt>Largest entry</dt>
              <dd>{bytes(c.max_entry_bytes)}</dd>
            </div>
          </dl>
        </section>
      )}
    </>
  );
}
