import type { JobStats } from "../store/job-store";
import { registerJobMetrics } from "./job-metrics";
import { Counter, Gauge, Histogram, Registry } from "./prom-client";
import type { RequestSummary } from "./request-summary";

/** Figures read when Prometheus scrapes, from the parts of the gateway that own them. */
export type MetricSources = {
  /** endpoints whose circuit is not closed, with their state */
  circuits(): Array<{ endpoint: string; provider: string; state: "open" | "half_open" }>;
  /** spending-limit reservations open now */
  reservationsHeld(): Promise<number>;
  /** generation records waiting for the group commit */
  recordsPending(): number;
  /** the database answers and is migrated */
  databaseUp(): Promise<boolean>;
  /** the job queue's depth, outcomes and waiting times */
  jobs(): Promise<JobStats>;
  /** the response cache's unexpired entries and their bytes (all instances); absent: not reported */
  responseCache?(): Promise<{ entries: number; bytes: number }>;
};

/** One upstream call of a request's fallback loop. */
export type UpstreamAttempt = { provider: string; endpoint: string; status: number; ok: boolean; latencyMs: number };

export type GatewayMetrics = {
  request(r: RequestSummary): void;
  attempt(a: UpstreamAttempt): void;
  /** the Prometheus text exposition */
  render(): Promise<string>;
  readonly contentType: string;
  /** every metric registered, for the generated metrics reference (scripts/docs/); absent where nothing is counted */
  readonly registry?: Registry;
};

const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const TTFT_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

/**
 * The gateway's Prometheus metrics. Labels are bounded sets (route patterns, catalog model and
 * provider ids, status codes); ids of keys or generations are never labels.
 */
export function createMetrics(sources: MetricSources, now: () => number = Date.now): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: "gateway_requests_total",
    help: "HTTP requests by route, method, status and model",
    labelNames: ["route", "method", "status", "model"],
    registers,
  });
  const duration = new Histogram({
    name: "gateway_request_duration_seconds",
    help: "Time from request to last byte, by route",
    labelNames: ["route"],
    buckets: LATENCY_BUCKETS_S,
    registers,
  });
  const ttft = new Histogram({
    name: "gateway_time_to_first_token_seconds",
    help: "Time from request to the first output token, by model and provider",
    labelNames: ["model", "provider"],
    buckets: TTFT_BUCKETS_S,
    registers,
  });
  const tokens = new Counter({
    name: "gateway_tokens_total",
    help: "Tokens of served generations, by model, provider and kind",
    labelNames: ["model", "provider", "kind"],
    registers,
  });
  const cost = new Counter({ name: "gateway_cost_usd_total", help: "USD charged, by model and provider", labelNames: ["model", "provider"], registers });
  const attempts = new Counter({
    name: "gateway_upstream_attempts_total",
    help: "Upstream calls by provider, endpoint and status (0: no HTTP answer)",
    labelNames: ["provider", "endpoint", "status"],
    registers,
  });
  const failures = new Counter({
    name: "gateway_upstream_failures_total",
    help: "Failed upstream calls by provider and endpoint",
    labelNames: ["provider", "endpoint"],
    registers,
  });
  const upstreamLatency = new Histogram({
    name: "gateway_upstream_latency_seconds",
    help: "Time to the upstream's answer (first byte), by provider",
    labelNames: ["provider"],
    buckets: LATENCY_BUCKETS_S,
    registers,
  });

  new Gauge({
    name: "gateway_circuit_open",
    help: "Endpoints whose circuit is not closed: 1 open, 0.5 half-open (one probe allowed)",
    labelNames: ["provider", "endpoint"],
    registers,
    collect() {
      this.reset();
      for (const c of sources.circuits()) this.set({ provider: c.provider, endpoint: c.endpoint }, c.state === "open" ? 1 : 0.5);
    },
  });
  new Gauge({
    name: "gateway_reservations_held",
    help: "Spending-limit reservations open now (all instances)",
    registers,
    async collect() {
      this.set(await sources.reservationsHeld());
    },
  });
  new Gauge({
    name: "gateway_records_pending",
    help: "Generation records waiting for the database group commit",
    registers,
    collect() {
      this.set(sources.recordsPending());
    },
  });
  new Gauge({
    name: "gateway_database_up",
    help: "1 when the database answers and is migrated",
    registers,
    async collect() {
      this.set((await sources.databaseUp()) ? 1 : 0);
    },
  });
  const cacheAnswers = new Counter({
    name: "gateway_response_cache_requests_total",
    help: "Answers by the response cache's verdict, as their X-Gateway-Cache header says (hit, miss, bypass)",
    labelNames: ["result"],
    registers,
  });
  const cacheStats = sources.responseCache;
  if (cacheStats) {
    new Gauge({
      name: "gateway_response_cache_entries",
      help: "Unexpired entries in the response cache",
      registers,
      async collect() {
        this.set((await cacheStats()).entries);
      },
    });
    new Gauge({
      name: "gateway_response_cache_bytes",
      help: "Bytes of the unexpired entries in the response cache",
      registers,
      async collect() {
        this.set((await cacheStats()).bytes);
      },
    });
  }
  registerJobMetrics(registers, sources.jobs, now);
  const startedAt = now();
  new Gauge({
    name: "process_start_time_seconds",
    help: "Start time of the process since the Unix epoch in seconds",
    registers,
    collect() {
      this.set(Math.floor(startedAt / 1000));
    },
  });
  new Gauge({
    name: "process_resident_memory_bytes",
    help: "Resident memory size in bytes",
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Counter({
    name: "process_cpu_seconds_total",
    help: "Total user and system CPU time spent in seconds",
    registers,
    collect() {
      const { user, system } = process.cpuUsage();
      this.reset();
      this.inc((user + system) / 1e6);
    },
  });

  return {
    contentType: registry.contentType,
    registry,
    request(r) {
      requests.inc({ route: r.route, method: r.method, status: String(r.status), model: r.model ?? "" });
      duration.observe({ route: r.route }, r.durationMs / 1000);
      if (r.cache && r.status < 400) cacheAnswers.inc({ result: r.cache });
      // a cache hit processed no tokens and cost nothing upstream
      if (r.model === null || r.provider === null || r.cache === "hit") return;
      const served = { model: r.model, provider: r.provider };
      if (r.timeToFirstTokenMs !== null) ttft.observe(served, r.timeToFirstTokenMs / 1000);
      if (r.tokensPrompt) tokens.inc({ ...served, kind: "prompt" }, r.tokensPrompt);
      if (r.tokensCompletion) tokens.inc({ ...served, kind: "completion" }, r.tokensCompletion);
      if (r.tokensReasoning) tokens.inc({ ...served, kind: "reasoning" }, r.tokensReasoning);
      if (r.tokensCached) tokens.inc({ ...served, kind: "cached" }, r.tokensCached);
      if (r.costUsd) cost.inc(served, r.costUsd);
    },
    attempt(a) {
      const where = { provider: a.provider, endpoint: a.endpoint };
      attempts.inc({ ...where, status: String(a.status) });
      if (!a.ok) failures.inc(where);
      upstreamLatency.observe({ provider: a.provider }, a.latencyMs / 1000);
    },
    render: () => registry.metrics(),
  };
}
