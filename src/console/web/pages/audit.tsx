import { useState } from "preact/hooks";
import type { ConsoleAuditEvent } from "../../audit-view";
import { api, query } from "../api";
import { Field, Select } from "../components/field";
import { type Loaded, useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import { Pager } from "../components/pager";
import { fromLocalInput, when } from "../format";
import "../identity.css";
import { href } from "../router";

type Verdict = { ok: boolean; events: number; broken_id: string | null; reason: string | null; broken_event: ConsoleAuditEvent | null };
type Choices = { resources: string[]; actions: string[]; actors: Array<{ id: string; type: string; name: string }> };

const FIELDS = ["resource", "action", "actor_id", "since", "until"] as const;
type Filters = Record<(typeof FIELDS)[number], string>;

/** the kinds of resource as a person reads them */
const RESOURCE_LABELS: Readonly<Record<string, string>> = {
  key: "Keys",
  workspace: "Workspaces",
  member: "Workspace members",
  byok: "BYOK credentials",
  preset: "Presets",
  budget: "Budgets",
  guardrail: "Guardrails",
  destination: "Observability destinations",
  user: "People",
  scim_token: "SCIM tokens",
  scim_group: "SCIM groups",
  scim_mapping: "Group mappings",
  session: "Sign-ins and sign-outs",
  cache: "Response cache",
};

const filtersOf = (params: URLSearchParams): Filters => Object.fromEntries(FIELDS.map((k) => [k, params.get(k) ?? ""])) as Filters;

/** what an event did, in a line: "key.create “prod key”" */
const whatOf = (e: ConsoleAuditEvent) => (e.target_name ? `“${e.target_name}”` : e.target.type);

/** The chain's state, checked by the verifier of `gateway audit verify`: all events, or the first broken one by number and what it was. */
function ChainStatus({ verdict }: { verdict: Loaded<Verdict> }) {
  if (!verdict.data) return <LoadState loading={verdict.loading} error={verdict.error} what="the chain's state" />;
  const v = verdict.data;
  if (v.ok) return <Notice kind="ok">Chain verified: {v.events} events</Notice>;
  const e = v.broken_event;
  return (
    <Notice kind="error">
      Chain broken at event {v.broken_id}
      {e && ` (${e.action} ${whatOf(e)} by ${e.actor_name}, ${when(e.created_at)})`}: {v.reason}. {v.events} events before it verified.
    </Notice>
  );
}

function Changes({ e }: { e: ConsoleAuditEvent }) {
  const fields = Object.entries(e.changes);
  if (fields.length === 0) return <p class="muted">No fields changed.</p>;
  const shown = (v: unknown) => (v === null ? "—" : JSON.stringify(v));
  return (
    <table class="changes">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {fields.map(([field, c]) => (
          <tr key={field}>
            <th scope="row">{field}</th>
            <td>
              <code>{shown(c.from)}</code>
            </td>
            <td>
              <code>{shown(c.to)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EventDetail({ e }: { e: ConsoleAuditEvent }) {
  return (
    <div class="audit-detail">
      <dl class="record">
        <div>
          <dt>Event</dt>
          <dd>#{e.id}</dd>
        </div>
        <div>
          <dt>Workspace</dt>
          <dd>{e.workspace_name ?? (e.workspace_id ? "a deleted workspace" : "—")}</dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>{e.ip ?? "—"}</dd>
        </div>
        <div>
          <dt>Client</dt>
          <dd>{e.user_agent ?? "—"}</dd>
        </div>
        <div>
          <dt>Hash</dt>
          <dd class="hash">{e.hash}</dd>
        </div>
      </dl>
      <Changes e={e} />
    </div>
  );
}

/** an event's row, and under it, when opened, its details; the event where the chain breaks is marked */
function EventRows({ e, broken }: { e: ConsoleAuditEvent; broken: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr class={broken ? "chain-broken" : undefined}>
        <td data-label="When">{when(e.created_at)}</td>
        <td data-label="Who">{e.actor_name}</td>
        <td data-label="What">
          {/* one box: on a narrow screen the cell lays out its label and its content side by side */}
          <span>
            <span class="badge">{e.action}</span> {whatOf(e)}
            {broken && (
              <>
                {" "}
                <span class="badge badge-bad">chain broken here</span>
              </>
            )}
          </span>
        </td>
        <td data-label="Origin">
          <span class="badge badge-origin">{e.origin}</span>
        </td>
        <td class="row-actions">
          <button type="button" class="button button-small" aria-expanded={open} onClick={() => setOpen(!open)} aria-label={`Details of event ${e.id}`}>
            {open ? "Hide" : "Details"}
          </button>
        </td>
      </tr>
      {open && (
        <tr class="detail-row">
          <td colSpan={5}>
            <EventDetail e={e} />
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * The audit log: every administrative change newest first, a keyset page at a time, filtered by
 * kind of resource, action, who and when (the filters live in the page's address), each event
 * opening to what changed; above it, whether the hash chain holds.
 */
export function AuditPage({ params }: { params: URLSearchParams }) {
  const applied = filtersOf(params);
  const [draft, setDraft] = useState<Filters>(applied);
  const [cursors, setCursors] = useState<string[]>([]);
  const [wide] = useState(() => matchMedia("(min-width: 721px)").matches);
  const choices = useLoad(() => api<{ data: Choices }>("/audit/filters").then((r) => r.data), []);
  const verdict = useLoad(() => api<{ data: Verdict }>("/audit/verify").then((r) => r.data), []);
  const cursor = cursors.at(-1);
  const page = useLoad(
    () =>
      api<{ data: ConsoleAuditEvent[]; next_cursor: string | null }>(
        `/audit${query({ ...applied, since: fromLocalInput(applied.since), until: fromLocalInput(applied.until), limit: 50, cursor })}`,
      ),
    [JSON.stringify(applied), cursor],
  );
  const set = (field: keyof Filters) => (value: string) => setDraft({ ...draft, [field]: value });
  const apply = (e: Event) => {
    e.preventDefault();
    setCursors([]);
    location.hash = `${href("audit")}${query(draft)}`;
  };
  const actions = (choices.data?.actions ?? []).filter((a) => !draft.resource || a.startsWith(`${draft.resource}.`));
  return (
    <>
      <h1>Audit log</h1>
      <ChainStatus verdict={verdict} />
      <details class="filters-details" open={wide}>
        <summary>Filters</summary>
        <form class="form filters-form" onSubmit={apply} aria-label="Filter events">
          <div class="form-grid">
            <Select label="Resource" value={draft.resource} onChange={(v) => setDraft({ ...draft, resource: v, action: "" })}>
              <option value="">Any resource</option>
              {(choices.data?.resources ?? []).map((r) => (
                <option key={r} value={r}>
                  {RESOURCE_LABELS[r] ?? r}
                </option>
              ))}
            </Select>
            <Select label="Action" value={draft.action} onChange={set("action")}>
              <option value="">Any action</option>
              {actions.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </Select>
            <Select label="Who" value={draft.actor_id} onChange={set("actor_id")}>
              <option value="">Anyone</option>
              {(choices.data?.actors ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </Select>
            <Field label="From (UTC)" type="datetime-local" value={draft.since} onInput={set("since")} />
            <Field label="To (UTC)" type="datetime-local" value={draft.until} onInput={set("until")} />
          </div>
          <div class="actions">
            <button type="submit" class="button button-primary">
              Apply filters
            </button>
          </div>
        </form>
      </details>
      <LoadState loading={page.loading && !page.data} error={page.error} what="events" />
      {page.data && (
        <div class="table-wrap">
          <table class="audit">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Origin</th>
                <th scope="col">
                  <span class="sr-only">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((e) => (
                <EventRows key={e.id} e={e} broken={e.id === verdict.data?.broken_id} />
              ))}
              {page.data.data.length === 0 && (
                <tr>
                  <td colSpan={5} class="empty">
                    No events match
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {page.data && <Pager cursors={cursors} next={page.data.next_cursor} onChange={setCursors} />}
    </>
  );
}
