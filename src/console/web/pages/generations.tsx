import { useState } from "preact/hooks";
import { api, query } from "../api";
import { Field, Select } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState } from "../components/notice";
import { WorkspacePicker } from "../components/workspace-picker";
import { count, fromLocalInput, ms, usd, when } from "../format";
import { href } from "../router";
import type { Generation, Key, Me } from "../types";

/** the operations other than chat, as the log names them beside the model */
export const KIND_LABELS: Readonly<Record<string, string>> = {
  embeddings: "embeddings",
  video: "video",
  image: "image",
  tts: "speech",
  stt: "transcription",
  rerank: "rerank",
};

type Filters = { workspace_id: string; api_key_hash: string; model: string; provider: string; status: string; from: string; to: string };

export function statusOf(g: Pick<Generation, "cancelled" | "finish_reason">): "cancelled" | "error" | "success" {
  return g.cancelled ? "cancelled" : g.finish_reason === "error" ? "error" : "success";
}

export function StatusBadge({ g }: { g: Pick<Generation, "cancelled" | "finish_reason"> & Partial<Pick<Generation, "cache_status">> }) {
  const s = statusOf(g);
  return (
    <>
      <span class={`badge ${s === "success" ? "badge-ok" : s === "error" ? "badge-bad" : "badge-warn"}`}>{s}</span>
      {g.cache_status === "hit" && <span class="badge"> cached</span>}
    </>
  );
}

/** The generation log: filters, newest first, a keyset page at a time (Older follows next_cursor; Newer goes back). */
export function GenerationsPage({ me }: { me: Me }) {
  // members read one workspace at a time; managers start with all of them
  const [draft, setDraft] = useState<Filters>({
    workspace_id: me.manages ? "" : (me.workspaces[0]?.id ?? ""),
    api_key_hash: "",
    model: "",
    provider: "",
    status: "",
    from: "",
    to: "",
  });
  const [applied, setApplied] = useState(draft);
  const [cursors, setCursors] = useState<string[]>([]);
  const keys = useLoad(() => api<{ data: Key[] }>("/keys").then((r) => r.data), []);
  const cursor = cursors.at(-1);
  const page = useLoad(
    () =>
      api<{ data: Generation[]; next_cursor: string | null }>(
        `/generations${query({ ...applied, from: fromLocalInput(applied.from), to: fromLocalInput(applied.to), limit: 50, cursor })}`,
      ),
    [JSON.stringify(applied), cursor],
  );
  const set = (field: keyof Filters) => (value: string) => setDraft({ ...draft, [field]: value });
  const apply = (e: Event) => {
    e.preventDefault();
    setCursors([]);
    setApplied(draft);
  };
  if (me.workspaces.length === 0 && !me.manages)
    return (
      <>
        <h1>Generations</h1>
        <p>You are not a member of any workspace yet.</p>
      </>
    );
  return (
    <>
      <h1>Generations</h1>
      <form class="form filters-form" onSubmit={apply} aria-label="Filter generations">
        <div class="form-grid">
          <WorkspacePicker me={me} value={draft.workspace_id} onChange={set("workspace_id")} allLabel={me.manages ? "All workspaces" : undefined} />
          <Select label="Key" value={draft.api_key_hash} onChange={set("api_key_hash")}>
            <option value="">Any key</option>
            {(keys.data ?? []).map((k) => (
              <option value={k.hash} key={k.hash}>
                {k.name}
              </option>
            ))}
          </Select>
          <Field label="Model" value={draft.model} onInput={set("model")} placeholder="author/model" />
          <Field label="Provider" value={draft.provider} onInput={set("provider")} />
          <Select label="Status" value={draft.status} onChange={set("status")}>
            <option value="">Any status</option>
            <option value="success">Success</option>
            <option value="error">Error</option>
            <option value="cancelled">Cancelled</option>
          </Select>
          <Field label="From (UTC)" type="datetime-local" value={draft.from} onInput={set("from")} />
          <Field label="To (UTC)" type="datetime-local" value={draft.to} onInput={set("to")} />
        </div>
        <div class="actions">
          <button type="submit" class="button button-primary">
            Apply filters
          </button>
        </div>
      </form>
      <LoadState loading={page.loading && !page.data} error={page.error} what="generations" />
      {page.data && (
        <>
          <div class="table-wrap">
            <table class="generations">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Model</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Tokens in / out
                  </th>
                  <th scope="col" class="num">
                    Cost
                  </th>
                  <th scope="col" class="num">
                    Latency
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.data.map((g) => (
                  <tr key={g.id}>
                    <td data-label="Time">
                      <a href={href("generations", g.id)}>{when(g.created_at)}</a>
                    </td>
                    <td data-label="Model">
                      {g.model}
                      {g.api_type !== "completions" && (
                        <>
                          {" "}
                          <span class="badge">{KIND_LABELS[g.api_type] ?? g.api_type}</span>
                        </>
                      )}
                    </td>
                    <td data-label="Provider">{g.provider_name ?? "—"}</td>
                    <td data-label="Status">
                      <StatusBadge g={g} />
                    </td>
                    <td data-label="Tokens" class="num">
                      {count(g.tokens_prompt ?? 0)} / {count(g.tokens_completion ?? 0)}
                    </td>
                    <td data-label="Cost" class="num">
                      {usd(g.total_cost)}
                    </td>
                    <td data-label="Latency" class="num">
                      {ms(g.latency)}
                    </td>
                  </tr>
                ))}
                {page.data.data.length === 0 && (
                  <tr>
                    <td colSpan={7} class="empty">
                      No generations match
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <nav class="pager" aria-label="Pages">
            <button type="button" class="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer
            </button>
            <button
              type="button"
              class="button"
              disabled={!page.data.next_cursor}
              onClick={() => page.data?.next_cursor && setCursors([...cursors, page.data.next_cursor])}
            >
              Older
            </button>
          </nav>
        </>
      )}
    </>
  );
}
