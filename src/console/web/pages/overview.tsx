import { useState } from "preact/hooks";
import { api, query } from "../api";
import { ActivitySection } from "../components/activity-section";
import { useLoad } from "../components/load";
import { LoadState } from "../components/notice";
import { WorkspacePicker } from "../components/workspace-picker";
import { count, ms, percent, usd, when } from "../format";
import { href } from "../router";
import type { Figures, Me, Overview } from "../types";

function Stat({ title, figures }: { title: string; figures: Figures }) {
  return (
    <section class="stat" aria-label={title}>
      <h3>{title}</h3>
      <p class="stat-spend">{usd(figures.spend)}</p>
      <p class="stat-requests">
        {count(figures.requests)} {figures.requests === 1 ? "request" : "requests"}
      </p>
    </section>
  );
}

function SpendTable({ title, column, rows }: { title: string; column: string; rows: Array<{ id: string; name: string } & Figures> }) {
  return (
    <section class="card">
      <h2>{title}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{column}</th>
            <th scope="col" class="num">
              Spend
            </th>
            <th scope="col" class="num">
              Requests
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td class="break">{r.name}</td>
              <td class="num">{usd(r.spend)}</td>
              <td class="num">{count(r.requests)}</td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={3} class="empty">
                No requests in the last 30 days
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

const REFUSED: Array<[string, string]> = [
  ["401", "Wrong or missing key"],
  ["402", "Limit or budget reached"],
  ["413", "Body too large"],
  ["429", "Rate limited"],
  ["503", "Nothing could serve"],
];

/** Requests refused before any generation, last 30 days: each status's count, and the 402s and 429s of each key. */
function RefusalsCard({ refusals }: { refusals: Overview["refusals"] }) {
  return (
    <section class="card" aria-labelledby="refused-title">
      <h2 id="refused-title">Refused requests, last 30 days</h2>
      <ul class="refused-counts">
        {REFUSED.map(([status, what]) => (
          <li key={status}>
            <a href={`${href("generations")}?status=refused&refused_status=${status}`}>
              <strong>{count(refusals.by_status[status] ?? 0)}</strong> {status} · {what}
            </a>
          </li>
        ))}
      </ul>
      <table>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col" class="num">
              402 limit
            </th>
            <th scope="col" class="num">
              429 rate
            </th>
          </tr>
        </thead>
        <tbody>
          {refusals.keys.map((k) => (
            <tr key={k.hash}>
              <td>{k.name ?? "a deleted key"}</td>
              <td class="num">{count(k.payment_required)}</td>
              <td class="num">{count(k.rate_limited)}</td>
            </tr>
          ))}
          {refusals.keys.length === 0 && (
            <tr>
              <td colSpan={3} class="empty">
                No key was refused for its limit or rate
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

export function OverviewPage({ me }: { me: Me }) {
  const [workspace, setWorkspace] = useState("");
  const { data, error, loading } = useLoad(() => api<{ data: Overview }>(`/overview${query({ workspace_id: workspace })}`).then((r) => r.data), [workspace]);
  return (
    <>
      <div class="page-head">
        <h1>Overview</h1>
        <div class="filters">
          <WorkspacePicker me={me} value={workspace} onChange={setWorkspace} allLabel={me.manages ? "All workspaces" : "All my workspaces"} />
        </div>
      </div>
      <LoadState loading={loading && !data} error={error} what="the overview" />
      {data && data.alerts.length > 0 && (
        <section class="notices" aria-label="Budget alerts">
          {data.alerts.map((a) => (
            <p class="notice notice-warn" key={`${a.scope}${a.id}${a.interval}`}>
              {a.scope === "key" ? `Key “${a.name}”` : `Workspace “${a.name}”`} has spent {percent(a.threshold)} of its{" "}
              {a.interval === "lifetime" ? "" : `${a.interval} `}
              {a.scope === "key" ? "limit" : "budget"} (alert sent {when(a.created_at)}).
            </p>
          ))}
        </section>
      )}
      {data && (
        <>
          <div class="stats">
            <Stat title="Today" figures={data.today} />
            <Stat title="This week" figures={data.week} />
            <Stat title="This month" figures={data.month} />
          </div>
          <ActivitySection workspace={workspace} />
          <div class="columns">
            <SpendTable title="Top models by spend" column="Model" rows={data.top_models.map((m) => ({ ...m, id: m.model, name: m.model }))} />
            <SpendTable title="Top keys by spend" column="Key" rows={data.top_keys.map((k) => ({ ...k, id: k.hash, name: k.name ?? "a deleted key" }))} />
          </div>
          <RefusalsCard refusals={data.refusals} />
          <section class="card">
            <h2>Providers, last 30 minutes</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col" class="num">
                    Attempts
                  </th>
                  <th scope="col" class="num">
                    Error rate
                  </th>
                  <th scope="col" class="num">
                    p50
                  </th>
                  <th scope="col" class="num">
                    p95
                  </th>
                  <th scope="col" class="num">
                    Open circuits
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.providers.map((p) => (
                  <tr key={p.provider}>
                    <td>{p.provider}</td>
                    <td class="num">{count(p.requests)}</td>
                    <td class="num">{percent(p.error_rate)}</td>
                    <td class="num">{ms(p.p50_ms)}</td>
                    <td class="num">{ms(p.p95_ms)}</td>
                    <td class="num">{p.open_circuits > 0 ? <span class="badge badge-bad">{p.open_circuits}</span> : "0"}</td>
                  </tr>
                ))}
                {data.providers.length === 0 && (
                  <tr>
                    <td colSpan={6} class="empty">
                      No upstream traffic in the last 30 minutes
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </section>
          {data.queues && (
            <section class="card">
              <h2>Background work</h2>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Kind</th>
                    <th scope="col" class="num">
                      Waiting
                    </th>
                    <th scope="col" class="num">
                      Dead
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.queues.map((q) => (
                    <tr key={q.kind}>
                      <td>{q.kind}</td>
                      <td class="num">{count(q.waiting)}</td>
                      <td class="num">{q.dead > 0 ? <a href={href("jobs")}>{count(q.dead)}</a> : "0"}</td>
                    </tr>
                  ))}
                  {data.queues.length === 0 && (
                    <tr>
                      <td colSpan={3} class="empty">
                        Nothing waiting and no dead jobs
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </section>
          )}
        </>
      )}
    </>
  );
}
