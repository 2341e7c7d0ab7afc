import { useState } from "preact/hooks";
import { api } from "../api";
import { Field } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState } from "../components/notice";
import { ms } from "../format";

type Endpoint = {
  name: string;
  provider_name: string;
  tag: string;
  pricing: { prompt: string; completion: string };
  status: number;
  uptime_last_30m: number | null;
  latency_last_30m: { p50: number } | null;
  throughput_last_30m: { p50: number } | null;
};
type Model = { id: string; name: string; context_length: number; endpoints: Endpoint[] };

const perMillion = (perToken: string) => `$${(Number(perToken) * 1e6).toFixed(2)}`;
const CIRCUIT: Record<number, [string, string]> = { 0: ["Serving", "badge-ok"], [-1]: ["Probing", "badge-warn"], [-2]: ["Circuit open", "badge-bad"] };

/** The catalog: each model's endpoints with prices and their live latency, throughput, uptime and circuit. */
export function ModelsPage() {
  const { data, error, loading } = useLoad(() => api<{ data: Model[] }>("/models").then((r) => r.data), []);
  const [search, setSearch] = useState("");
  const shown = (data ?? [])
    .filter((m) => m.id.includes(search.trim().toLowerCase()) || m.name.toLowerCase().includes(search.trim().toLowerCase()))
    .slice(0, 200);
  return (
    <>
      <div class="page-head">
        <h1>Models and providers</h1>
        <div class="filters">
          <Field label="Search models" value={search} onInput={setSearch} />
        </div>
      </div>
      <LoadState loading={loading} error={error} what="the catalog" />
      {data && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Provider</th>
                <th scope="col" class="num">
                  Input / 1M
                </th>
                <th scope="col" class="num">
                  Output / 1M
                </th>
                <th scope="col" class="num">
                  Latency p50
                </th>
                <th scope="col" class="num">
                  Tokens/s p50
                </th>
                <th scope="col" class="num">
                  Uptime 30 min
                </th>
                <th scope="col">Circuit</th>
              </tr>
            </thead>
            <tbody>
              {shown.flatMap((m) =>
                m.endpoints.map((e, i) => {
                  const [label, badge] = CIRCUIT[e.status] ?? ["Unknown", ""];
                  return (
                    <tr key={`${m.id}|${e.tag}|${i}`}>
                      {i === 0 && (
                        <th scope="rowgroup" rowSpan={m.endpoints.length} class="break">
                          {m.id}
                        </th>
                      )}
                      <td>{e.provider_name}</td>
                      <td class="num">{perMillion(e.pricing.prompt)}</td>
                      <td class="num">{perMillion(e.pricing.completion)}</td>
                      <td class="num">{ms(e.latency_last_30m?.p50)}</td>
                      <td class="num">{e.throughput_last_30m ? e.throughput_last_30m.p50.toFixed(0) : "—"}</td>
                      <td class="num">{e.uptime_last_30m === null ? "—" : `${e.uptime_last_30m}%`}</td>
                      <td>
                        <span class={`badge ${badge}`}>{label}</span>
                      </td>
                    </tr>
                  );
                }),
              )}
              {shown.length === 0 && (
                <tr>
                  <td colSpan={8} class="empty">
                    No models match
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
