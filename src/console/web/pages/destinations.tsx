import { useState } from "preact/hooks";
import { api, query } from "../api";
import { useAction } from "../components/action";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import { WorkspacePicker } from "../components/workspace-picker";
import { percent, when } from "../format";
import type { Destination, DestinationTypeForm, Key, Me } from "../types";
import { DestinationForm } from "./destination-form";
import type { Workspace } from "./workspace-detail";

type Mode = { kind: "list" } | { kind: "create" } | { kind: "edit"; destination: Destination };

function DestinationRows({
  me,
  list,
  types,
  busy,
  onEdit,
  onToggle,
  onDelete,
}: {
  me: Me;
  list: Destination[];
  types: DestinationTypeForm[];
  busy: boolean;
  onEdit: (d: Destination) => void;
  onToggle: (d: Destination) => void;
  onDelete: (d: Destination) => void;
}) {
  const typeLabel = (type: string) => types.find((t) => t.type === type)?.label ?? type;
  return (
    <div class="table-wrap">
      <table class="destinations">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">
              Sampling
            </th>
            <th scope="col">Content</th>
            <th scope="col">Keys</th>
            <th scope="col">Changed</th>
            {me.manages && (
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {list.map((d) => {
            const name = d.name ?? typeLabel(d.type);
            return (
              <tr key={d.id}>
                <td data-label="Name" class="break">
                  {name}
                </td>
                <td data-label="Type">{typeLabel(d.type)}</td>
                <td data-label="Status">{d.enabled ? <span class="badge badge-ok">Enabled</span> : <span class="badge badge-bad">Disabled</span>}</td>
                <td data-label="Sampling" class="num">
                  {percent(d.sampling_rate)}
                </td>
                <td data-label="Content">{d.privacy_mode ? "Metadata only" : "Prompts and completions"}</td>
                <td data-label="Keys">
                  {d.api_key_hashes === null ? "All keys" : `${d.api_key_hashes.length} ${d.api_key_hashes.length === 1 ? "key" : "keys"}`}
                </td>
                <td data-label="Changed">{when(d.updated_at)}</td>
                {me.manages && (
                  <td class="row-actions">
                    <button type="button" class="button button-small" disabled={busy} onClick={() => onEdit(d)} aria-label={`Edit ${name}`}>
                      Edit
                    </button>
                    <button
                      type="button"
                      class="button button-small"
                      disabled={busy}
                      onClick={() => onToggle(d)}
                      aria-label={`${d.enabled ? "Disable" : "Enable"} ${name}`}
                    >
                      {d.enabled ? "Disable" : "Enable"}
                    </button>
                    <button type="button" class="button button-small button-danger" disabled={busy} onClick={() => onDelete(d)} aria-label={`Delete ${name}`}>
                      Delete
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
          {list.length === 0 && (
            <tr>
              <td colSpan={8} class="empty">
                No destinations: generations of this workspace are not forwarded
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Observability destinations of a workspace: where its generations are forwarded. Managers
 * create (a form per type), test, edit, enable, disable and delete; members read.
 */
export function DestinationsPage({ me }: { me: Me }) {
  const [workspace, setWorkspace] = useState(me.workspaces.find((w) => w.is_default && me.manages)?.id ?? me.workspaces[0]?.id ?? "");
  const [mode, setMode] = useState<Mode>({ kind: "list" });
  const [saved, setSaved] = useState<string | null>(null);
  const types = useLoad(() => api<{ data: DestinationTypeForm[] }>("/destination-types").then((r) => r.data), []);
  const list = useLoad(
    () =>
      workspace ? api<{ data: Destination[] }>(`/destinations${query({ workspace_id: workspace, limit: 100 })}`).then((r) => r.data) : Promise.resolve([]),
    [workspace],
  );
  // the keys a destination may be narrowed to; only managers edit, so only they ask
  const keys = useLoad(
    () => (me.manages && workspace ? api<{ data: Key[] }>(`/keys${query({ workspace_id: workspace })}`).then((r) => r.data) : Promise.resolve([])),
    [workspace],
  );
  // the workspace's broadcast switch: while it is off its destinations receive nothing
  const settings = useLoad(() => api<{ data: Workspace[] }>("/workspaces").then((r) => r.data), []);
  const ws = settings.data?.find((w) => w.id === workspace);
  const { busy, error, run } = useAction(() => {
    list.reload();
    settings.reload();
  });
  const turnOn = () => run(async () => void (await api(`/workspaces/${workspace}`, { method: "PATCH", body: { is_observability_broadcast_enabled: true } })));
  const changeWorkspace = (id: string) => {
    setWorkspace(id);
    setMode({ kind: "list" });
  };
  const done = (name: string) => {
    setSaved(name);
    setMode({ kind: "list" });
    list.reload();
  };
  const toggle = (d: Destination) => {
    setSaved(null);
    void run(async () => void (await api(`/destinations/${d.id}`, { method: "PATCH", body: { enabled: !d.enabled } })));
  };
  const remove = (d: Destination) => {
    setSaved(null);
    if (confirm(`Delete the destination “${d.name ?? d.type}”? Its generations stop being forwarded.`))
      void run(async () => void (await api(`/destinations/${d.id}`, { method: "DELETE" })));
  };

  if (me.workspaces.length === 0)
    return (
      <>
        <h1>Observability destinations</h1>
        <p>You are not a member of any workspace.</p>
      </>
    );
  return (
    <>
      <div class="page-head">
        <h1>Observability destinations</h1>
        <div class="filters">
          <WorkspacePicker me={me} value={workspace} onChange={changeWorkspace} />
          {me.manages && mode.kind === "list" && (
            <button
              type="button"
              class="button button-primary"
              disabled={!types.data}
              onClick={() => {
                setSaved(null);
                setMode({ kind: "create" });
              }}
            >
              New destination
            </button>
          )}
        </div>
      </div>
      {!me.manages && <p class="muted">Read-only: only organization owners and admins change destinations.</p>}
      {error && <Notice kind="error">{error}</Notice>}
      {saved && mode.kind === "list" && <Notice kind="ok">Destination “{saved}” saved.</Notice>}
      {ws && !ws.is_observability_broadcast_enabled && (
        <div class="notice notice-warn broadcast-off" role="status">
          <p>
            {saved && mode.kind === "list" ? `“${saved}” will receive nothing yet: ` : ""}
            Broadcast is off for {ws.name}, so its destinations receive no generations.
          </p>
          {me.manages ? (
            <button type="button" class="button button-small" disabled={busy} onClick={turnOn}>
              Turn on broadcast for {ws.name}
            </button>
          ) : (
            <p>An owner or admin turns it on, on the Workspaces page.</p>
          )}
        </div>
      )}
      <LoadState loading={types.loading && !types.data} error={types.error} what="destination types" />
      {mode.kind !== "list" && types.data && (
        <DestinationForm
          key={mode.kind === "edit" ? mode.destination.id : "new"}
          types={types.data}
          workspaceId={workspace}
          keys={keys.data ?? []}
          editing={mode.kind === "edit" ? mode.destination : undefined}
          onSaved={done}
          onCancel={() => setMode({ kind: "list" })}
        />
      )}
      <LoadState loading={list.loading && !list.data} error={list.error} what="destinations" />
      {list.data && (
        <DestinationRows
          me={me}
          list={list.data}
          types={types.data ?? []}
          busy={busy}
          onEdit={(d) => {
            setSaved(null);
            setMode({ kind: "edit", destination: d });
          }}
          onToggle={toggle}
          onDelete={remove}
        />
      )}
    </>
  );
}
