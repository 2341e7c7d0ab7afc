import { useState } from "preact/hooks";
import { api, query } from "../api";
import { Checkbox, Field, Select } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState } from "../components/notice";
import { Pager } from "../components/pager";
import { WorkspacePicker } from "../components/workspace-picker";
import { count, fromLocalInput, ms, usd, when } from "../format";
import { href } from "../router";
import type { Generation, Key, Me, Refusal } from "../types";

/** the operations other than chat, as the log names them beside the model */
export const KIND_LABELS: Readonly<Record<string, string>> = {
  embeddings: "embeddings",
  video: "video",
  image: "image",
  tts: "speech",
  stt: "transcription",
  rerank: "rerank",
};

const FIELDS = ["workspace_id", "api_key_hash", "model", "provider", "status", "refused_status", "flagged", "from", "to"] as const;
type Filters = Record<(typeof FIELDS)[number], string>;
/** one page of the log: generations, or refused requests */
type LogPage = { generations: Generation[] | null; refusals: Refusal[] | null; next_cursor: string | null };

export function statusOf(g: Pick<Generation, "cancelled" | "finish_reason">): "cancelled" | "error" | "success" {
  return g.cancelled ? "cancelled" : g.finish_reason === "error" ? "error" : "success";
}

export function StatusBadge({ g }: { g: Pick<Generation, "cancelled" | "finish_reason"> }) {
  const s = statusOf(g);
  return <span class={`badge ${s === "success" ? "badge-ok" : s === "error" ? "badge-bad" : "badge-warn"}`}>{s}</span>;
}

/** guardrail content filters with action flag matched the request (it was forwarded): the badge and the filters' names */
export function FlaggedBadge({ flags }: { flags: readonly string[] }) {
  if (flags.length === 0) return null;
  return (
    <span class="flagged">
      <span class="badge badge-warn">Flagged</span> <span class="flag-names">{flags.join(", ")}</span>
    </span>
  );
}

/** the filters the page's address holds (#/generations?model=...), so a filtered view can be linked and reloaded */
function filtersOf(params: URLSearchParams, me: Me): Filters {
  const f = Object.fromEntries(FIELDS.map((k) => [k, params.get(k) ?? ""])) as Filters;
  // members read one workspace at a time; managers start with all of them
  if (!me.manages && !f.workspace_id) f.workspace_id = me.workspaces[0]?.id ?? "";
  return f;
}

/** what the generation log's API takes of the filters (times as UTC ISO) */
const listQuery = (f: Filters) => ({
  workspace_id: f.workspace_id,
  api_key_hash: f.api_key_hash,
  model: f.model,
  provider: f.provider,
  status: f.status,
  flagged: f.flagged === "true" ? "true" : undefined,
  from: fromLocalInput(f.from),
  to: fromLocalInput(f.to),
});

/**
 * The request log: generations, or the requests refused before any (status "refused"), newest
 * first, a keyset page at a time (Older follows next_cursor; Newer goes back). The filters live in
 * the page's address; the CSV export takes every generation they select.
 */
export function GenerationsPage({ me, params }: { me: Me; params: URLSearchParams }) {
  const applied = filtersOf(params, me);
  const [draft, setDraft] = useState<Filters>(applied);
  const [cursors, setCursors] = useState<string[]>([]);
  const [wide] = useState(() => matchMedia("(min-width: 721px)").matches);
  const keys = useLoad(() => api<{ data: Key[] }>("/keys").then((r) => r.data.filter((k) => !k.is_management)), []);
  const cursor = cursors.at(-1);
  const refused = applied.status === "refused";
  const page = useLoad<LogPage>(
    () =>
      refused
        ? api<{ data: Refusal[]; next_cursor: string | null }>(
            `/refusals${query({ workspace_id: applied.workspace_id, api_key_hash: applied.api_key_hash, status: applied.refused_status, from: fromLocalInput(applied.from), to: fromLocalInput(applied.to), limit: 50, cursor })}`,
          ).then((r) => ({ refusals: r.data, generations: null, next_cursor: r.next_cursor }))
        : api<{ data: Generation[]; next_cursor: string | null }>(`/generations${query({ ...listQuery(applied), limit: 50, cursor })}`).then((r) => ({
            refusals: null,
            generations: r.data,
            next_cursor: r.next_cursor,
          })),
    [JSON.stringify(applied), cursor],
  );
  const set = (field: keyof Filters) => (value: string) => setDraft({ ...draft, [field]: value });
  const apply = (e: Event) => {
    e.preventDefault();
    setCursors([]);
    location.hash = `${href("generations")}${query(draft)}`;
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
      <div class="page-head">
        <h1>Generations</h1>
        {!refused && (
          <a class="button" href={`/console/api/generations.csv${query(listQuery(applied))}`} download>
            Export CSV
          </a>
        )}
      </div>
      <details class="filters-details" open={wide}>
        <summary>Filters</summary>
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
              <option value="refused">Refused before a generation</option>
            </Select>
            {draft.status === "refused" && (
              <Select label="Refused with" value={draft.refused_status} onChange={set("refused_status")}>
                <option value="">Any status</option>
                <option value="401">401 wrong or missing key</option>
                <option value="402">402 limit or budget</option>
                <option value="413">413 body too large</option>
                <option value="429">429 rate limited</option>
                <option value="503">503 nothing could serve</option>
              </Select>
            )}
            {draft.status !== "refused" && (
              <Checkbox label="Flagged only" checked={draft.flagged === "true"} onChange={(on) => set("flagged")(on ? "true" : "")} />
            )}
            <Field label="From (UTC)" type="datetime-local" value={draft.from} onInput={set("from")} />
            <Field label="To (UTC)" type="datetime-local" value={draft.to} onInput={set("to")} />
          </div>
          <div class="actions">
            <button type="submit" class="button button-primary">
              Apply filters
            </button>
          </div>
        </form>
      </details>
      <LoadState loading={page.loading && !page.data} error={page.error} what="generations" />
      {page.data?.generations && <GenerationTable rows={page.data.generations} />}
      {page.data?.refusals && <RefusalTable rows={page.data.refusals} />}
      {page.data && <Pager cursors={cursors} next={page.data.next_cursor} onChange={setCursors} />}
    </>
  );
}

function GenerationTable({ rows }: { rows: Generation[] }) {
  return (
    <div class="table-wrap">
      <table class="generations">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Model</th>
            <th scope="col">Key</th>
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
          {rows.map((g) => (
            <tr key={g.id}>
              <td data-label="Time">
                <a href={href("generations", g.id)}>{when(g.created_at)}</a>
              </td>
              <td data-label="Model" class="id">
                {g.model}
                {g.api_type !== "completions" && (
                  <>
                    {" "}
                    <span class="badge">{KIND_LABELS[g.api_type] ?? g.api_type}</span>
                  </>
                )}
              </td>
              <td data-label="Key">{g.key_name ?? "a deleted key"}</td>
              <td data-label="Provider">{g.provider_name ?? "—"}</td>
              <td data-label="Status">
                <span class="status-cell">
                  <StatusBadge g={g} />
                  <FlaggedBadge flags={g.guardrail_flags} />
                </span>
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
          {rows.length === 0 && (
            <tr>
              <td colSpan={8} class="empty">
                No generations match
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function RefusalTable({ rows }: { rows: Refusal[] }) {
  return (
    <div class="table-wrap">
      <table class="generations refusals">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Status</th>
            <th scope="col">Model</th>
            <th scope="col">Key</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td data-label="Time">{when(r.created_at)}</td>
              <td data-label="Status">
                <span class={`badge ${r.status === 429 || r.status === 503 ? "badge-warn" : "badge-bad"}`}>
                  {r.status} {r.error_code}
                </span>
              </td>
              <td data-label="Model" class="id">
                {r.model ?? "—"}
              </td>
              <td data-label="Key">{r.key_name ?? (r.key_hash ? "a deleted key" : "unknown caller")}</td>
              <td data-label="Reason" class="reason">
                {r.reason}
              </td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={5} class="empty">
                No refused requests match
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
