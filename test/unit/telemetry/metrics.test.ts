import { expect, test } from "bun:test";
import { createLogger } from "../../../src/logger";
import { logRequest } from "../../../src/telemetry/access-log";
import { createMetrics, type MetricSources } from "../../../src/telemetry/metrics";
import { plainRequest, type RequestSummary } from "../../../src/telemetry/request-summary";

const sources: MetricSources = {
  circuits: () => [
    { endpoint: "oc/up-chat", provider: "oc", state: "open" },
    { endpoint: "an/up-anth", provider: "an", state: "half_open" },
  ],
  reservationsHeld: async () => 3,
  recordsPending: () => 2,
  databaseUp: async () => true,
  jobs: async () => ({
    queues: [
      { kind: "webhook.deliver", state: "pending", count: 4 },
      { kind: "webhook.deliver", state: "dead", count: 1 },
    ],
    outcomes: [{ kind: "webhook.deliver", outcome: "failed", count: 7 }],
    oldestDue: [{ kind: "webhook.deliver", runAt: 1_700_000_000_000 - 2_500 }],
  }),
};

const served: RequestSummary = {
  ...plainRequest("POST", "/api/v1/chat/completions", 200, 1500, "ab".repeat(32), "gen-1"),
  model: "t/chat",
  provider: "oc",
  streamed: true,
  finishReason: "stop",
  tokensPrompt: 10,
  tokensCompletion: 5,
  tokensReasoning: null,
  tokensCached: 4,
  costUsd: 0.00002,
  timeToFirstTokenMs: 300,
  attempts: 2,
};

const lines = (text: string) => text.split("\n").filter((l) => l && !l.startsWith("#"));

test("requests, tokens, cost, attempts and the scraped gauges, with exact values", async () => {
  const m = createMetrics(sources, () => 1_700_000_000_000);
  m.request(served);
  m.request(plainRequest("GET", "/api/v1/keys", 403, 2, null));
  m.attempt({ provider: "oc", endpoint: "oc/up-chat", status: 500, ok: false, latencyMs: 120 });
  m.attempt({ provider: "oc", endpoint: "oc/up-chat", status: 200, ok: true, latencyMs: 80 });
  const out = lines(await m.render());
  for (const line of [
    'gateway_requests_total{route="/api/v1/chat/completions",method="POST",status="200",model="t/chat"} 1',
    'gateway_requests_total{route="/api/v1/keys",method="GET",status="403",model=""} 1',
    'gateway_request_duration_seconds_bucket{le="2.5",route="/api/v1/chat/completions"} 1',
    'gateway_request_duration_seconds_bucket{le="1",route="/api/v1/chat/completions"} 0',
    'gateway_time_to_first_token_seconds_bucket{le="0.5",model="t/chat",provider="oc"} 1',
    'gateway_tokens_total{model="t/chat",provider="oc",kind="prompt"} 10',
    'gateway_tokens_total{model="t/chat",provider="oc",kind="completion"} 5',
    'gateway_tokens_total{model="t/chat",provider="oc",kind="cached"} 4',
    'gateway_cost_usd_total{model="t/chat",provider="oc"} 0.00002',
    'gateway_upstream_attempts_total{provider="oc",endpoint="oc/up-chat",status="500"} 1',
    'gateway_upstream_attempts_total{provider="oc",endpoint="oc/up-chat",status="200"} 1',
    'gateway_upstream_failures_total{provider="oc",endpoint="oc/up-chat"} 1',
    'gateway_circuit_open{provider="oc",endpoint="oc/up-chat"} 1',
    'gateway_circuit_open{provider="an",endpoint="an/up-anth"} 0.5',
    "gateway_reservations_held 3",
    "gateway_records_pending 2",
    "gateway_database_up 1",
    'gateway_jobs{kind="webhook.deliver",state="pending"} 4',
    'gateway_jobs{kind="webhook.deliver",state="dead"} 1',
    'gateway_job_attempts_total{kind="webhook.deliver",outcome="failed"} 7',
    'gateway_jobs_oldest_pending_age_seconds{kind="webhook.deliver"} 2.5',
    "process_start_time_seconds 1700000000",
  ])
    expect(out).toContain(line);
  expect(out.some((l) => l.startsWith("gateway_tokens_total") && l.includes('kind="reasoning"'))).toBe(false);
  expect(out.find((l) => l.startsWith("process_resident_memory_bytes "))).toMatch(/^process_resident_memory_bytes \d+$/);
});

test("the access log line: snake_case fields, nulls left out", () => {
  const written: string[] = [];
  logRequest(
    createLogger("info", (l) => written.push(l)),
    served,
  );
  logRequest(
    createLogger("info", (l) => written.push(l)),
    plainRequest("GET", "/api/v1/keys", 403, 2.04, null),
  );
  const [first, second] = written.map((l) => JSON.parse(l));
  expect(first).toEqual({
    time: first.time,
    level: "info",
    msg: "request",
    method: "POST",
    route: "/api/v1/chat/completions",
    status: 200,
    duration_ms: 1500,
    key: "abababababab",
    generation_id: "gen-1",
    model: "t/chat",
    provider: "oc",
    streamed: true,
    finish_reason: "stop",
    tokens_prompt: 10,
    tokens_completion: 5,
    cost: 0.00002,
    ttft_ms: 300,
    attempts: 2,
  });
  expect(second).toEqual({ time: second.time, level: "info", msg: "request", method: "GET", route: "/api/v1/keys", status: 403, duration_ms: 2 });
});
