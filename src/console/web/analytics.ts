/** The console's analytics queries (POST /console/api/analytics/query, OpenRouter's query shape) and what the charts make of their rows. */
import { api } from "./api";

export type Range = "24h" | "7d" | "30d" | "90d";
export type Breakdown = "" | "model" | "api_key_id" | "provider" | "api_type";

export const RANGES: Array<{ id: Range; label: string }> = [
  { id: "24h", label: "24 hours" },
  { id: "7d", label: "7 days" },
  { id: "30d", label: "30 days" },
  { id: "90d", label: "90 days" },
];

export const BREAKDOWNS: Array<{ id: Breakdown; label: string }> = [
  { id: "", label: "All together" },
  { id: "model", label: "Per model" },
  { id: "api_key_id", label: "Per key" },
  { id: "provider", label: "Per provider" },
  { id: "api_type", label: "Per kind" },
];

/**
 * The kinds of generation, by the record's api_type (chat completions, responses and messages are
 * all "completions", as OpenRouter records them); "" is a counter from before kinds were counted.
 */
export const KINDS: Array<{ id: string; label: string }> = [
  { id: "completions", label: "Chat" },
  { id: "embeddings", label: "Embeddings" },
  { id: "image", label: "Images" },
  { id: "tts", label: "Speech" },
  { id: "stt", label: "Transcription" },
  { id: "rerank", label: "Rerank" },
  { id: "video", label: "Video" },
];

/** a kind as the charts and tables name it: its label and its api_type */
export const kindLabel = (apiType: string): string => {
  if (apiType === "") return "Not recorded";
  const kind = KINDS.find((k) => k.id === apiType);
  return kind ? `${kind.label} (${apiType})` : apiType;
};

export const METRICS = ["total_usage", "request_count", "tokens_total", "p50_latency", "p95_latency", "error_rate", "media_completions"] as const;
type Row = Record<string, string | number | null>;

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The buckets of a range: the last 24 hours by hour, else whole UTC days up to today. */
export function buckets(range: Range, now: number): { granularity: "hour" | "day"; starts: number[]; start: number; end: number } {
  if (range === "24h") {
    const end = now - (now % HOUR) + HOUR;
    const starts = Array.from({ length: 24 }, (_, i) => end - (24 - i) * HOUR);
    return { granularity: "hour", starts, start: starts[0]!, end };
  }
  const days = range === "7d" ? 7 : range === "30d" ? 30 : 90;
  const today = now - (now % DAY);
  const starts = Array.from({ length: days }, (_, i) => today - (days - 1 - i) * DAY);
  return { granularity: "day", starts, start: starts[0]!, end: today + DAY };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

export async function queryRows(body: Record<string, unknown>): Promise<Row[]> {
  return (await api<{ data: { data: Row[] } }>("/analytics/query", { method: "POST", body })).data.data;
}

/** the series of every metric over the range's buckets, one per group (the top 5 groups by spend, then requests); `kind`: one api_type only */
export async function activity(range: Range, breakdown: Breakdown, workspace: string, kind: string, now: number) {
  const b = buckets(range, now);
  const filters = [
    ...(workspace ? [{ field: "workspace", operator: "eq", value: workspace }] : []),
    ...(kind ? [{ field: "api_type", operator: "eq", value: kind }] : []),
  ];
  const base = { metrics: [...METRICS], filters, time_range: { start: iso(b.start), end: iso(b.end) }, limit: 10_000 };
  const [series, totals] = await Promise.all([
    queryRows({ ...base, granularity: b.granularity, dimensions: breakdown ? [breakdown] : [] }),
    queryRows({ ...base, dimensions: breakdown ? [breakdown] : [], order_by: { field: "total_usage", direction: "desc" } }),
  ]);
  const ranked = [...totals].sort((x, y) => Number(y.total_usage) - Number(x.total_usage) || Number(y.request_count) - Number(x.request_count));
  const groups = breakdown ? ranked.slice(0, 5).map((r) => String(r[breakdown])) : ["All"];
  const name = (group: string) => (breakdown === "api_type" ? kindLabel(group) : group);
  const dateField = `date__${b.granularity}`;
  const at = (row: Row) => Date.parse(b.granularity === "day" ? `${row[dateField]}T00:00:00Z` : String(row[dateField]));
  const cell = new Map<string, Row>();
  for (const row of series) cell.set(`${breakdown ? row[breakdown] : "All"}|${at(row)}`, row);
  const line = (group: string, metric: (typeof METRICS)[number], empty: number | null) =>
    b.starts.map((t) => {
      const v = cell.get(`${group}|${t}`)?.[metric];
      return v === undefined || v === null ? empty : Number(v);
    });
  return { times: b.starts.map((t) => t / 1000), groups, line, totals: ranked, name };
}
