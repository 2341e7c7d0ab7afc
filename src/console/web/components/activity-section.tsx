import { useState } from "preact/hooks";
import { activity, BREAKDOWNS, type Breakdown, KINDS, type METRICS, RANGES, type Range } from "../analytics";
import { count, ms, percent, usd } from "../format";
import { Select } from "./field";
import { useLoad } from "./load";
import { LoadState } from "./notice";
import { type Series, SeriesChart } from "./series-chart";

const tokens = (v: number) => (v >= 1_000_000 ? `${(v / 1_000_000).toFixed(1)}M` : v >= 1000 ? `${(v / 1000).toFixed(1)}k` : String(v));
/** counts have whole ticks only: a fractional one (a near-empty chart's) is left unlabelled */
const whole = (format: (v: number) => string) => (v: number) => (Number.isInteger(v) ? format(v) : "");

/**
 * Spend, requests, tokens, latency (p50 and p95) and error rate over a chosen range, one chart
 * each, all together or a line per model, key, provider or kind (the five largest by spend), of
 * every kind or one, and a table of every group over the range with the images image
 * generations returned. Read from the analytics API's counters.
 */
export function ActivitySection({ workspace }: { workspace: string }) {
  const [range, setRange] = useState<Range>("30d");
  const [breakdown, setBreakdown] = useState<Breakdown>("");
  const [kind, setKind] = useState("");
  const data = useLoad(() => activity(range, breakdown, workspace, kind, Date.now()), [range, breakdown, workspace, kind]);
  const label = BREAKDOWNS.find((b) => b.id === breakdown)!.label.toLowerCase();
  const rangeLabel = RANGES.find((r) => r.id === range)!.label;
  const lines = (metric: (typeof METRICS)[number], empty: number | null): Series[] =>
    data.data ? data.data.groups.map((g) => ({ label: data.data!.name(g), values: data.data!.line(g, metric, empty) })) : [];
  const charts: Array<{ title: string; series: Series[]; format: (v: number) => string; minTop?: number }> = data.data
    ? [
        { title: "Spend", series: lines("total_usage", 0), format: usd },
        { title: "Requests", series: lines("request_count", 0), format: whole(count), minTop: 5 },
        { title: "Tokens", series: lines("tokens_total", 0), format: whole(tokens), minTop: 5 },
        {
          title: breakdown ? "Latency p95" : "Latency",
          series: breakdown
            ? lines("p95_latency", null)
            : [
                { label: "p50", values: data.data.line("All", "p50_latency", null) },
                { label: "p95", values: data.data.line("All", "p95_latency", null) },
              ],
          format: (v) => ms(v),
          minTop: 100,
        },
        { title: "Error rate", series: lines("error_rate", 0), format: percent, minTop: 0.05 },
        ...(kind === "image" ? [{ title: "Images", series: lines("media_completions", 0), format: whole(count), minTop: 5 }] : []),
      ]
    : [];
  const images = data.data?.totals.some((r) => Number(r.media_completions) > 0) ?? false;
  return (
    <section class="card" aria-labelledby="activity-title">
      <div class="page-head">
        <h2 id="activity-title">Activity, last {rangeLabel}</h2>
        <div class="filters">
          <fieldset class="segmented">
            <legend class="sr-only">Range</legend>
            {RANGES.map((r) => (
              <button key={r.id} type="button" class="button button-small" aria-pressed={range === r.id} onClick={() => setRange(r.id)}>
                {r.label}
              </button>
            ))}
          </fieldset>
          <Select label="Lines" value={breakdown} onChange={(v) => setBreakdown(v as Breakdown)}>
            {BREAKDOWNS.map((b) => (
              <option key={b.id} value={b.id}>
                {b.label}
              </option>
            ))}
          </Select>
          <Select label="Kind" value={kind} onChange={setKind}>
            <option value="">All kinds</option>
            {KINDS.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </Select>
        </div>
      </div>
      <LoadState loading={data.loading && !data.data} error={data.error} what="activity" />
      {data.data && (
        <>
          <div class="charts">
            {charts.map((c) => (
              <figure class="chart-box" key={c.title}>
                <figcaption>{c.title}</figcaption>
                <SeriesChart
                  title={`${c.title} ${breakdown ? label : ""} over the last ${rangeLabel}`}
                  times={data.data!.times}
                  series={c.series}
                  format={c.format}
                  minTop={c.minTop}
                />
              </figure>
            ))}
          </div>
          {breakdown && (
            <div class="table-wrap">
              <table class="breakdown">
                <caption class="sr-only">
                  {label}, last {rangeLabel}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{BREAKDOWNS.find((b) => b.id === breakdown)!.label.replace("Per ", "")}</th>
                    <th scope="col" class="num">
                      Spend
                    </th>
                    <th scope="col" class="num">
                      Requests
                    </th>
                    <th scope="col" class="num">
                      Tokens
                    </th>
                    <th scope="col" class="num">
                      p50
                    </th>
                    <th scope="col" class="num">
                      p95
                    </th>
                    <th scope="col" class="num">
                      Errors
                    </th>
                    {images && (
                      <th scope="col" class="num">
                        Images
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {data.data.totals.map((r) => (
                    <tr key={String(r[breakdown])}>
                      <th scope="row" class="id">
                        {data.data!.name(String(r[breakdown]))}
                      </th>
                      <td class="num">{usd(Number(r.total_usage))}</td>
                      <td class="num">{count(Number(r.request_count))}</td>
                      <td class="num">{count(Number(r.tokens_total))}</td>
                      <td class="num">{ms(r.p50_latency === null ? null : Number(r.p50_latency))}</td>
                      <td class="num">{ms(r.p95_latency === null ? null : Number(r.p95_latency))}</td>
                      <td class="num">{percent(Number(r.error_rate))}</td>
                      {images && <td class="num">{Number(r.media_completions) > 0 ? count(Number(r.media_completions)) : "—"}</td>}
                    </tr>
                  ))}
                  {data.data.totals.length === 0 && (
                    <tr>
                      <td colSpan={images ? 8 : 7} class="empty">
                        No requests in this range
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
