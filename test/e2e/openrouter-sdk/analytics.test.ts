// GET /analytics/meta and POST /analytics/query through @openrouter/sdk (its zod schemas check the
// answers' shapes), against generations of known counts and costs made through the gateway, one
// of them failed upstream (a request at cost 0). The SDK 1.3.19 parses each row with
// `z.object({})`, which drops every field of it, so the rows' values are read with fetch too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { costUsd, result, type SdkHarness, sdk, startSdkHarness } from "./setup";

let h: SdkHarness;
let alpha: { key: string; hash: string };
let beta: { key: string; hash: string };
let teamId: string;

async function turn(key: string, input: number, output: number) {
  h.up.enqueue({ text: "ok", usage: { input, output } });
  return result(await sdk(h.gw, key).chat.send({ chatRequest: { model: "acme/chat", messages: [{ role: "user", content: "hi" }], maxTokens: 50 } }));
}

async function query(body: Record<string, unknown>) {
  const res = await h.gw.api("/api/v1/analytics/query", { method: "POST", json: body });
  return {
    status: res.status,
    body: (await res.json()) as {
      data: { data: Array<Record<string, unknown>>; metadata: { query_time_ms: number; row_count: number; truncated: boolean }; warnings?: string[] };
    },
  };
}

beforeAll(async () => {
  h = await startSdkHarness();
  const team = await h.admin.workspaces.create({ createWorkspaceRequest: { name: "Analytics Team", slug: "analytics-team" } });
  teamId = team.data.id;
  alpha = await createInferenceKey(h.gw, { name: "alpha" });
  beta = await createInferenceKey(h.gw, { name: "beta", workspace_id: "analytics-team" });
  await turn(alpha.key, 100, 40);
  await turn(alpha.key, 300, 60);
  await turn(beta.key, 10, 5);
  // the only endpoint answers 500: the request fails (502), recorded at cost 0
  h.up.enqueue({ status: 500 });
  const failed = await h.gw.api("/api/v1/chat/completions", {
    method: "POST",
    key: alpha.key,
    json: { model: "acme/chat", messages: [{ role: "user", content: "hi" }] },
  });
  expect(failed.status).toBe(502);
});
afterAll(() => h.close());

describe("analytics", () => {
  test("meta lists OpenRouter's metric and dimension names, the operators and granularities, as the SDK reads them", async () => {
    const meta = await h.admin.analytics.getAnalyticsMeta();
    expect(meta.data.metrics.map((m) => m.name)).toEqual([
      "request_count",
      "byok_request_count",
      "tokens_total",
      "tokens_prompt",
      "tokens_completion",
      "reasoning_tokens",
      "cached_tokens",
      "total_usage",
      "byok_usage",
      "credits_usage",
      "avg_latency",
      "p50_latency",
      "p90_latency",
      "p95_latency",
      "p99_latency",
      "avg_throughput",
      "cache_hit_rate",
      "media_completions",
      "error_count",
      "error_rate",
    ]);
    expect(meta.data.metrics[0]).toEqual({ name: "request_count", displayLabel: "Request Count", isRate: false, displayFormat: "number" });
    expect(meta.data.metrics.find((m) => m.name === "total_usage")).toEqual({
      name: "total_usage",
      displayLabel: "Total Usage",
      isRate: false,
      displayFormat: "currency",
    });
    expect(meta.data.dimensions.map((d) => d.name)).toEqual(["model", "provider", "api_key_id", "user", "workspace", "finish_reason", "api_type"]);
    expect(meta.data.operators).toEqual([
      { name: "eq", valueType: "scalar" },
      { name: "neq", valueType: "scalar" },
      { name: "in", valueType: "array" },
      { name: "not_in", valueType: "array" },
      { name: "gt", valueType: "scalar" },
      { name: "gte", valueType: "scalar" },
      { name: "lt", valueType: "scalar" },
      { name: "lte", valueType: "scalar" },
    ]);
    expect(meta.data.granularities.map((g) => g.name)).toEqual(["hour", "day", "week", "month"]);
  });

  test("per key: requests (the failed one included), spend, errors and tokens; keys answer by name", async () => {
    const body = {
      metrics: ["request_count", "total_usage", "error_count", "tokens_prompt"],
      dimensions: ["api_key_id"],
      order_by: { field: "request_count", direction: "desc" },
    };
    const viaSdk = await h.admin.analytics.queryAnalytics({
      requestBody: { metrics: body.metrics, dimensions: body.dimensions, orderBy: { field: "request_count", direction: "desc" } },
    });
    expect(viaSdk.data.metadata).toEqual({ queryTimeMs: expect.any(Number), rowCount: 2, truncated: false });
    const { status, body: answer } = await query(body);
    expect(status).toBe(200);
    expect(answer.data.data).toEqual([
      { api_key_id: "alpha", request_count: 3, total_usage: costUsd(400, 100), error_count: 1, tokens_prompt: 400 },
      { api_key_id: "beta", request_count: 1, total_usage: costUsd(10, 5), error_count: 0, tokens_prompt: 10 },
    ]);
  });

  test("by day and workspace, filtered by a key's hash; workspaces answer by name", async () => {
    const day = new Date().toISOString().slice(0, 10);
    const { body } = await query({
      metrics: ["request_count", "total_usage"],
      dimensions: ["workspace"],
      granularity: "day",
      filters: [{ field: "api_key_id", operator: "in", value: [beta.hash] }],
    });
    expect(body.data.data).toEqual([{ date__day: day, workspace: "Analytics Team", request_count: 1, total_usage: costUsd(10, 5) }]);
    const byWorkspaceId = await query({ metrics: ["request_count"], filters: [{ field: "workspace", operator: "eq", value: teamId }] });
    expect(byWorkspaceId.body.data.data).toEqual([{ request_count: 1 }]);
  });

  test("error rate and latency percentiles per finish reason; a hash no key has matches nothing, a number no key has warns", async () => {
    const { body } = await query({
      metrics: ["request_count", "error_rate", "p50_latency"],
      dimensions: ["finish_reason"],
      order_by: { field: "finish_reason", direction: "asc" },
    });
    expect(body.data.data.map((r) => [r.finish_reason, r.request_count, r.error_rate])).toEqual([
      ["error", 1, 1],
      ["stop", 3, 0],
    ]);
    for (const r of body.data.data) expect(typeof r.p50_latency).toBe("number");
    const none = await query({ metrics: ["request_count"], dimensions: ["model"], filters: [{ field: "api_key_id", operator: "eq", value: "f".repeat(64) }] });
    expect(none.body.data).toEqual({ data: [], metadata: { query_time_ms: expect.any(Number), row_count: 0, truncated: false } });
    const warned = await query({ metrics: ["request_count"], dimensions: ["model"], filters: [{ field: "api_key_id", operator: "eq", value: 12345 }] });
    expect(warned.body.data.warnings).toEqual(["api_key_id '12345' matches no key: the filter value matches nothing"]);
  });

  test("limit cuts and says so; group_limit keeps the first rows of each combination", async () => {
    const { body } = await query({ metrics: ["request_count"], dimensions: ["api_key_id"], limit: 1 });
    expect(body.data.data).toEqual([{ api_key_id: "alpha", request_count: 3 }]);
    expect(body.data.metadata).toEqual({ query_time_ms: expect.any(Number), row_count: 1, truncated: true });
  });

  test("every 400 names its field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ metrics: ["nope"] }, "metrics[0]"],
      [{ metrics: [] }, "metrics"],
      [{ metrics: ["request_count"], dimensions: ["country"] }, "dimensions[0]"],
      [{ metrics: ["request_count"], dimensions: ["model", "provider", "user"] }, "dimensions"],
      [{ metrics: ["request_count"], granularity: "minute" }, "granularity"],
      [{ metrics: ["request_count"], filters: [{ field: "model", operator: "like", value: "x" }] }, "filters[0].operator"],
      [{ metrics: ["request_count"], filters: [{ field: "model", operator: "in", value: "x" }] }, "filters[0].value"],
      [{ metrics: ["request_count"], filters: [{ field: "model", operator: "in", value: ["x"], include_unset: true }] }, "filters[0].include_unset"],
      [{ metrics: ["request_count"], time_range: { start: "2030-01-01T00:00Z", end: "2030-01-02T00:00:00Z" } }, "time_range.start"],
      [{ metrics: ["request_count"], time_range: { start: "2030-01-02T00:00:00Z", end: "2030-01-01T00:00:00Z" } }, "time_range.start"],
      [{ metrics: ["request_count"], granularity: "hour", time_range: { start: "2030-01-01T00:00:00Z", end: "2030-03-01T00:00:00Z" } }, "time_range"],
      [{ metrics: ["request_count"], order_by: { field: "total_usage", direction: "desc" } }, "order_by.field"],
      [{ metrics: ["request_count"], classifier_dimensions: { classifier_id: "x" } }, "classifier_dimensions"],
    ];
    for (const [body, field] of cases) {
      const res = await h.gw.api("/api/v1/analytics/query", { method: "POST", json: body });
      const json = (await res.json()) as { error: { code: number; metadata?: { field?: string } } };
      expect({ body, status: res.status, field: json.error.metadata?.field }).toEqual({ body, status: 400, field });
    }
  });

  test("an inference key is refused (403), no key 401", async () => {
    expect((await h.gw.api("/api/v1/analytics/meta", { key: alpha.key })).status).toBe(403);
    expect((await h.gw.api("/api/v1/analytics/query", { method: "POST", key: "sk-nope", json: { metrics: ["request_count"] } })).status).toBe(401);
  });
});
