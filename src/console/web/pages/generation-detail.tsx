import { api } from "../api";
import { useLoad } from "../components/load";
import { LoadState } from "../components/notice";
import { count, ms, usd, when } from "../format";
import { href } from "../router";
import type { GenerationDetail } from "../types";
import { GenerationContent } from "./generation-content";
import { StatusBadge } from "./generations";

/** One generation's record: what was asked and served, tokens, cost, timings, every upstream attempt, and the content I/O logging kept. */
export function GenerationDetailPage({ id }: { id: string }) {
  const loaded = useLoad(() => api<{ data: GenerationDetail }>(`/generations/${encodeURIComponent(id)}`).then((r) => r.data), [id]);
  const { error, loading } = loaded;
  // useLoad keeps the last answer while the next loads: never show one generation's record under another's id
  const g = loaded.data?.id === id ? loaded.data : undefined;
  const rows: Array<[string, string | preact.JSX.Element]> = g
    ? [
        ["Status", <StatusBadge g={g} />],
        ["Time", when(g.created_at)],
        ["Model", g.model],
        ["Provider", g.provider_name ?? "—"],
        ["API", g.api_type],
        ...(g.num_media_completion !== null ? ([["Images returned", count(g.num_media_completion)]] as Array<[string, string]>) : []),
        ["Key", g.key_name ?? "a deleted key"],
        ["Workspace", g.workspace_name ?? "a deleted workspace"],
        ["Streamed", g.streamed ? "yes" : "no"],
        ["Finish reason", g.finish_reason ?? "—"],
        ["Prompt tokens", count(g.tokens_prompt ?? 0)],
        ["Completion tokens", count(g.tokens_completion ?? 0)],
        ["Cost", `${usd(g.total_cost)}${g.is_byok ? " (BYOK)" : ""}`],
        ["Latency", ms(g.latency)],
        ["Time to first token", ms(g.time_to_first_token)],
        ["Session", g.session_id ?? "—"],
        ...(g.guardrail_flags.length > 0 ? ([["Guardrail flags", g.guardrail_flags.join(", ")]] as Array<[string, string]>) : []),
        ...(g.cache_status
          ? ([["Response cache", g.cache_status === "hit" ? `hit (answer of ${g.response_cache_source_id ?? "—"})` : g.cache_status]] as Array<
              [string, string]
            >)
          : []),
        ...(g.error_message ? ([["Error", g.error_message]] as Array<[string, string]>) : []),
      ]
    : [];
  return (
    <>
      <p>
        <a href={href("generations")}>← Generations</a>
      </p>
      <h1 class="break">Generation {id}</h1>
      <LoadState loading={loading} error={error} what="the generation" />
      {g && (
        <>
          <section class="card">
            <h2>Record</h2>
            <dl class="record">
              {rows.map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section class="card">
            <h2>Attempts</h2>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">Provider</th>
                    <th scope="col">Endpoint</th>
                    <th scope="col" class="num">
                      Status
                    </th>
                    <th scope="col" class="num">
                      Latency
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {g.provider_responses.map((a, i) => (
                    <tr key={i}>
                      <td>{i + 1}</td>
                      <td>{a.provider_name ?? "—"}</td>
                      <td>{a.endpoint_id ?? "—"}</td>
                      <td class="num">{a.status ?? "—"}</td>
                      <td class="num">{ms(a.latency)}</td>
                    </tr>
                  ))}
                  {g.provider_responses.length === 0 && (
                    <tr>
                      <td colSpan={5} class="empty">
                        No upstream was tried
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
          </section>
          {g.content_kept ? (
            <GenerationContent id={id} />
          ) : (
            <section class="card" aria-label="Prompt and completion">
              <h2>Prompt and completion</h2>
              <p class="muted">Not kept: the workspace's I/O logging was off for this request, sampled it out, or its retention has passed.</p>
            </section>
          )}
        </>
      )}
    </>
  );
}
