import { useState } from "preact/hooks";
import { api, query } from "../api";
import { DailyChart } from "../components/chart";
import { useLoad } from "../components/load";
import { LoadState } from "../components/notice";
import { WorkspacePicker } from "../components/workspace-picker";
import { count, ms, percent, usd } from "../format";
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
      {data && (
        <>
          <div class="stats">
            <Stat title="Today" figures={data.today} />
            <Stat title="This week" figures={data.week} />
            <Stat title="This month" figures={data.month} />
          </div>
          <section class="card">
            <h2>Last 30 days</h2>
            <DailyChart
              title="Spend and requests per day over the last 30 days"
              days={data.days.map((d) => d.day)}
              spend={data.days.map((d) => d.spend)}
              requests={data.days.map((d) => d.requests)}
            />
          </section>
          <div class="columns">
            <SpendTable title="Top models by spend" column="Model" rows={data.top_models.map((m) => ({ ...m, id: m.model, name: m.model }))} />
            <SpendTable
              title="Top keys by spend"
              column="Key"
              rows={data.top_keys.map((k) => ({ ...k, id: k.hash, name: k.name ?? `${k.hash.slice(0, 10)}…` }))}
            />
          </div>
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
