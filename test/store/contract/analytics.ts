/** Contract: the hourly analytics counters each commit adds to, refused requests and their counters, budget alerts claimed once. */
import { describe, expect, test } from "bun:test";
import { refusalCounters } from "../../../src/store/refusal-counts";
import type { AnalyticsCounterQuery, RefusalRecord, Store } from "../../../src/store/store";
import { generation, NOW, settled } from "./fixtures";

const HOUR = 3_600_000;
const H0 = NOW - (NOW % HOUR);

const query = (extra: Partial<AnalyticsCounterQuery>): AnalyticsCounterQuery => ({
  fromHour: H0 - 48 * HOUR,
  toHour: H0 + HOUR,
  bucket: null,
  groupBy: [],
  filters: [],
  sums: ["requests"],
  maxGroups: 100,
  ...extra,
});

const refusal = (id: string, createdAt: number, status: number, keyHash: string | null, workspaceId: string | null): RefusalRecord => ({
  id,
  createdAt,
  status,
  errorCode: status === 402 ? "limit_exceeded" : "rate_limited",
  reason: `refused ${id}`,
  method: "POST",
  route: "/api/v1/chat/completions",
  model: "acme/alpha",
  keyHash,
  workspaceId,
  userId: null,
});

export function analyticsContract(store: () => Store): void {
  describe("analytics counters", () => {
    test("every committed generation, failed and cancelled ones included, adds to its hour's row; a retried record adds nothing", async () => {
      const s = store();
      const g = (id: string, extra: Parameters<typeof generation>[3]) =>
        generation(id, "k1", 0, { workspaceId: "w1", endpointId: "p/m", providerName: "p", ...extra });
      await s.generations.commit([
        settled(
          g("a", { costNanos: 1_000, tokensPrompt: 10, tokensCompletion: 5, tokensCached: 4, finishReason: "stop", latencyMs: 80, generationTimeMs: 500 }),
        ),
        settled(g("b", { costNanos: 2_000, isByok: true, tokensPrompt: 1, tokensCompletion: 1, finishReason: "stop", latencyMs: 40_000 })),
        settled(g("c", { costNanos: 0, finishReason: "error", latencyMs: 90, providerName: null, endpointId: null }), { nanos: null }),
        settled(g("d", { costNanos: 0, cancelled: true, finishReason: "cancelled", createdAt: NOW - 2 * HOUR }), { nanos: null }),
      ]);
      await s.generations.commit([settled(g("a", { costNanos: 1_000 }))]);
      const sums = [
        "requests",
        "errors",
        "cancelled",
        "byok_requests",
        "prompt_tokens",
        "completion_tokens",
        "cached_tokens",
        "usage_nanos",
        "byok_usage_nanos",
        "latency_count",
        "latency_sum_ms",
        "throughput_tokens",
        "generation_ms",
        "lat_03",
        "lat_17",
        "lat_18",
      ] as const;
      expect(await s.analytics.query(query({ sums }))).toEqual([
        {
          bucket: null,
          groups: {},
          sums: {
            requests: 4,
            errors: 1,
            cancelled: 1,
            byok_requests: 1,
            prompt_tokens: 11,
            completion_tokens: 6,
            cached_tokens: 4,
            usage_nanos: 1_000,
            byok_usage_nanos: 2_000,
            latency_count: 3,
            latency_sum_ms: 40_170,
            throughput_tokens: 5,
            generation_ms: 500,
            lat_03: 2,
            lat_17: 1,
            lat_18: 0,
          },
        },
      ]);
      const byHourAndProvider = await s.analytics.query(query({ bucket: "hour", groupBy: ["provider_name", "finish_reason"] }));
      expect(byHourAndProvider.sort((x, y) => x.bucket! - y.bucket! || String(x.groups.finish_reason).localeCompare(String(y.groups.finish_reason)))).toEqual([
        { bucket: H0 - 2 * HOUR, groups: { provider_name: "p", finish_reason: "cancelled" }, sums: { requests: 1 } },
        { bucket: H0, groups: { provider_name: "", finish_reason: "error" }, sums: { requests: 1 } },
        { bucket: H0, groups: { provider_name: "p", finish_reason: "stop" }, sums: { requests: 2 } },
      ]);
      // filters: eq, in with an empty list, not_in; the hour range is [from, to)
      expect(await s.analytics.query(query({ filters: [{ column: "finish_reason", op: "eq", values: ["stop"] }] }))).toEqual([
        { bucket: null, groups: {}, sums: { requests: 2 } },
      ]);
      expect(await s.analytics.query(query({ groupBy: ["key_hash"], filters: [{ column: "workspace_id", op: "in", values: [] }] }))).toEqual([]);
      expect(await s.analytics.query(query({ filters: [{ column: "provider_name", op: "not_in", values: [""] }] }))).toEqual([
        { bucket: null, groups: {}, sums: { requests: 3 } },
      ]);
      expect(await s.analytics.query(query({ fromHour: H0 - HOUR }))).toEqual([{ bucket: null, groups: {}, sums: { requests: 3 } }]);
      expect(await s.analytics.query(query({ toHour: H0 }))).toEqual([{ bucket: null, groups: {}, sums: { requests: 1 } }]);
    });

    test("each api_type has its own rows; an image generation adds the images it returned to media_completions", async () => {
      const s = store();
      await s.generations.commit([
        settled(generation("t1", "k", 10, { apiType: "completions" })),
        settled(generation("i1", "k", 84_000_000, { apiType: "image", numMediaCompletion: 2, tokensPrompt: null, tokensCompletion: null })),
        settled(generation("i2", "k", 42_000_000, { apiType: "image", numMediaCompletion: 1, tokensPrompt: null, tokensCompletion: null })),
        settled(generation("s1", "k", 75_000, { apiType: "tts" })),
      ]);
      const rows = await s.analytics.query(query({ groupBy: ["api_type"], sums: ["requests", "usage_nanos", "media_completions"] }));
      expect(rows.sort((a, b) => String(a.groups.api_type).localeCompare(String(b.groups.api_type)))).toEqual([
        { bucket: null, groups: { api_type: "completions" }, sums: { requests: 1, usage_nanos: 10, media_completions: 0 } },
        { bucket: null, groups: { api_type: "image" }, sums: { requests: 2, usage_nanos: 126_000_000, media_completions: 3 } },
        { bucket: null, groups: { api_type: "tts" }, sums: { requests: 1, usage_nanos: 75_000, media_completions: 0 } },
      ]);
      expect(await s.analytics.query(query({ filters: [{ column: "api_type", op: "in", values: ["image", "tts"] }], sums: ["requests"] }))).toEqual([
        { bucket: null, groups: {}, sums: { requests: 3 } },
      ]);
    });

    test("days and ISO weeks (Mondays) bucket by UTC", async () => {
      const s = store();
      // NOW is Sunday 2026-11-22 12:00 UTC; the Monday before is 2026-11-16
      const monday = Date.parse("2026-11-23T00:30:00Z");
      await s.generations.commit([settled(generation("a", "k", 0)), settled(generation("b", "k", 0, { createdAt: monday }))]);
      const range = { fromHour: Date.parse("2026-11-01T00:00:00Z"), toHour: Date.parse("2026-12-01T00:00:00Z") };
      const days = await s.analytics.query(query({ ...range, bucket: "day" }));
      expect(days.map((r) => new Date(r.bucket!).toISOString()).sort()).toEqual(["2026-11-22T00:00:00.000Z", "2026-11-23T00:00:00.000Z"]);
      const weeks = await s.analytics.query(query({ ...range, bucket: "week" }));
      expect(weeks.map((r) => new Date(r.bucket!).toISOString()).sort()).toEqual(["2026-11-16T00:00:00.000Z", "2026-11-23T00:00:00.000Z"]);
    });
  });

  describe("refused requests", () => {
    test("a batch is stored, listed newest first by filter and keyset, counted per hour, key and status, and purged by age", async () => {
      const s = store();
      const batch = [
        refusal("r1", NOW - 3 * HOUR, 402, "k1", "w1"),
        refusal("r2", NOW - 2, 429, "k1", "w1"),
        refusal("r3", NOW - 1, 429, "k1", "w1"),
        refusal("r4", NOW, 401, null, null),
      ];
      await s.refusals.record(batch, refusalCounters(batch));
      // a refusal counted without its row (a flood's rows are sampled)
      await s.refusals.record(
        [refusal("r5", NOW, 429, "k2", "w2")],
        refusalCounters([refusal("r5", NOW, 429, "k2", "w2"), refusal("r6", NOW, 429, "k2", "w2")]),
      );
      expect((await s.refusals.list({}, null, 10)).map((r) => r.id)).toEqual(["r5", "r4", "r3", "r2", "r1"]);
      expect(await s.refusals.list({ status: 402 }, null, 10)).toEqual([refusal("r1", NOW - 3 * HOUR, 402, "k1", "w1")]);
      expect((await s.refusals.list({ workspaceIds: ["w1"] }, { createdAt: NOW - 1, id: "r3" }, 10)).map((r) => r.id)).toEqual(["r2", "r1"]);
      expect((await s.refusals.list({ keyHash: "k1", from: NOW - HOUR }, null, 10)).map((r) => r.id)).toEqual(["r3", "r2"]);
      const counts = await s.refusals.counts({ fromHour: H0 - 5 * HOUR, toHour: H0 + HOUR });
      expect(counts.sort((a, b) => a.status - b.status || a.keyHash.localeCompare(b.keyHash))).toEqual([
        { keyHash: "", workspaceId: "", status: 401, requests: 1 },
        { keyHash: "k1", workspaceId: "w1", status: 402, requests: 1 },
        { keyHash: "k1", workspaceId: "w1", status: 429, requests: 2 },
        { keyHash: "k2", workspaceId: "w2", status: 429, requests: 2 },
      ]);
      expect(await s.refusals.counts({ fromHour: H0, toHour: H0 + HOUR, workspaceIds: ["w2"] })).toEqual([
        { keyHash: "k2", workspaceId: "w2", status: 429, requests: 2 },
      ]);
      expect(await s.refusals.purge(NOW - HOUR)).toBe(1);
      expect((await s.refusals.list({}, null, 10)).map((r) => r.id)).toEqual(["r5", "r4", "r3", "r2"]);
      // the counters stay
      expect((await s.refusals.counts({ fromHour: H0 - 5 * HOUR, toHour: H0 + HOUR })).reduce((n, c) => n + c.requests, 0)).toBe(6);
    });
  });

  describe("budget alerts", () => {
    test("each alert is claimed once, inside a transaction too", async () => {
      const s = store();
      const alert = { scope: "key" as const, subjectId: "k1", interval: "daily", windowKey: "2026-11-22", threshold: "0.8", createdAt: NOW };
      expect(await s.budgetAlerts.claim(alert)).toBe(true);
      expect(await s.budgetAlerts.claim({ ...alert, createdAt: NOW + 1 })).toBe(false);
      expect(await s.transaction((tx) => tx.budgetAlerts.claim({ ...alert, threshold: "1" }))).toBe(true);
      expect(await s.budgetAlerts.claim({ ...alert, windowKey: "2026-11-23" })).toBe(true);
      expect((await s.budgetAlerts.recent(NOW, 10)).length).toBe(3);
    });
  });
}
