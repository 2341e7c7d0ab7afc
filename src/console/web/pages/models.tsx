import { useState } from "preact/hooks";
import { api } from "../api";
import { Checkbox, Field } from "../components/field";
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
  /** its provider has a key here (the gateway's own or a BYOK credential) */
  has_key: boolean;
};
/** `available`: GET /api/v1/models lists it (declared in gateway.yaml, or an endpoint with a key) */
type Model = { id: string; name: string; context_length: number; available: boolean; endpoints: Endpoint[] };

const perMillion = (perToken: string) => `$${(Number(perToken) * 1e6).toFixed(2)}`;
const CIRCUIT: Record<number, [string, string]> = { 0: ["Serving", "badge-ok"], [-1]: ["Probing", "badge-warn"], [-2]: ["Circuit open", "badge-bad"] };

/**
 * The catalog as GET /api/v1/models lists it: each model's endpoints with prices and their live
 * latency, throughput, uptime and circuit. Models no key can serve are hidden until asked for, and
 * an endpoint without a key says so instead of "Serving".
 */
export function ModelsPage() {
  const { data, error, loading } = useLoad(() => api<{ data: Model[] }>("/models").then((r) => r.data), []);
  const [search, setSearch] = useState("");
  const [all, setAll] = useState(false);
  const needle = search.trim().toLowerCase();
  const listed = (data ?? []).filter((m) => all || m.available);
  const matching = listed.filter((m) => m.id.toLowerCase().includes(needle) || m.name.toLowerCase().includes(needle));
  const shown = matching.slice(0, 200);
  const hidden = (data ?? []).filter((m) => !m.available).length;
  return (
    <>
      <div class="page-head">
        <h1>Models and providers</h1>
        <div class="filters">
          <Field label="Search models" value={search} onInput={setSearch} />
          <Checkbox label="Show unavailable" checked={all} onChange={setAll} />
        </div>
      </div>
      <LoadState loading={loading} error={error} what="the catalog" />
      {data && (
        <p class="muted models-count" role="status">
          {listed.length} {listed.length === 1 ? "model" : "models"} {all ? "in the catalog" : "can serve"}
          {!all && hidden > 0 ? ` · ${hidden} more without a key (set its provider's key or add a BYOK credential)` : ""}
          {matching.length > shown.length ? ` · the first ${shown.length} shown` : ""}
        </p>
      )}
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
                  const [label, badge] = e.has_key ? (CIRCUIT[e.status] ?? ["Unknown", ""]) : ["No key", "badge-bad"];
                  return (
                    <tr key={`${m.id}|${e.tag}|${i}`}>
                      {i === 0 && (
                        <th scope="rowgroup" rowSpan={m.endpoints.length} class="id model-id">
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
