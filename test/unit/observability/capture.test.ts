import { describe, expect, test } from "bun:test";
import type { IRStreamPart } from "../../../src/ir/types";
import { ioLoggingKeeps, keyNumber } from "../../../src/observability/capture/io-logging";
import { keptContent } from "../../../src/observability/capture/kept-content";
import { forwardTargets, observePlan } from "../../../src/observability/capture/observe-plan";
import { observedGeneration } from "../../../src/observability/capture/observed-generation";
import { completionInput, embeddingsInput, videoInput } from "../../../src/observability/capture/request-content";
import { resultOutput, StreamContent } from "../../../src/observability/capture/result-content";
import { sampledIn } from "../../../src/observability/pipeline/sampling";
import { generation } from "../../store/contract/fixtures";

const HASH = "0123456789abcdef".repeat(4);
const key = { hash: HASH, name: "Prod Key" };
const request = { id: "gen-1", sessionId: null, trace: null };
const input = () => ({ messages: [], tools: null, parameters: {} });
/** an enabled destination of the workspace taking every key and every session */
const everyKey = [{ id: "d-1", apiKeyHashes: null, samplingRate: 1 }];

describe("observePlan: decided from the cached workspace settings", () => {
  test("broadcast and I/O logging off: null, nothing is collected", () => {
    let read = 0;
    expect(observePlan({ id: "ws", settings: {} }, key, request, "chat", () => (read++, input()), everyKey)).toBeNull();
    expect(
      observePlan(
        { id: "ws", settings: { is_observability_broadcast_enabled: false, is_observability_io_logging_enabled: false } },
        key,
        request,
        "chat",
        input,
        everyKey,
      ),
    ).toBeNull();
    expect(read).toBe(0);
  });
  test("either switch on makes a plan saying which", () => {
    expect(observePlan({ id: "ws", settings: { is_observability_broadcast_enabled: true } }, key, request, "chat", input, everyKey)).toMatchObject({
      broadcast: true,
      keepContent: false,
      keyName: "Prod Key",
      operation: "chat",
    });
    expect(observePlan({ id: "ws", settings: { is_observability_io_logging_enabled: true } }, key, request, "embeddings", input, everyKey)).toMatchObject({
      broadcast: false,
      keepContent: true,
      operation: "embeddings",
    });
  });
  test("broadcast on, but no enabled destination takes the request: nothing is forwarded, nothing collected", () => {
    const on = { id: "ws", settings: { is_observability_broadcast_enabled: true } };
    let read = 0;
    const counted = () => (read++, input());
    expect(observePlan(on, key, request, "chat", counted, [])).toBeNull();
    expect(observePlan(on, key, request, "chat", counted, [{ id: "d-1", apiKeyHashes: ["another-key"], samplingRate: 1 }])).toBeNull();
    // the pipeline's own sampling: this session is out for d-1 at this rate, in for d-2
    const session = { id: "gen-1", sessionId: "s1", trace: null };
    const rate = 0.5;
    expect(sampledIn("d-1", session, rate)).toBe(false);
    expect(sampledIn("d-2", session, rate)).toBe(true);
    expect(observePlan(on, key, session, "chat", counted, [{ id: "d-1", apiKeyHashes: null, samplingRate: rate }])).toBeNull();
    expect(
      observePlan(on, key, session, "chat", counted, [
        { id: "d-1", apiKeyHashes: null, samplingRate: rate },
        { id: "d-2", apiKeyHashes: [HASH], samplingRate: rate },
      ]),
    ).toMatchObject({ broadcast: true });
    // I/O logging keeps the content whatever the destinations say
    expect(
      observePlan(
        { id: "ws", settings: { is_observability_broadcast_enabled: true, is_observability_io_logging_enabled: true } },
        key,
        request,
        "chat",
        counted,
        [],
      ),
    ).toMatchObject({ broadcast: false, keepContent: true });
    expect(read).toBe(0);
  });
});

describe("forwardTargets: the destinations a plan reads", () => {
  const on = { id: "ws", settings: { is_observability_broadcast_enabled: true } };
  test("a workspace that does not forward reads nothing", () => {
    let reads = 0;
    expect(forwardTargets(async () => (reads++, everyKey), { id: "ws", settings: {} })).toBeNull();
    expect(reads).toBe(0);
  });
  test("a lookup that fails is not known (null), and then the request is captured: forwarding never fails an answer", async () => {
    const failed = await forwardTargets(() => Promise.reject(new Error("database is down")), on);
    expect(failed).toBeNull();
    expect(observePlan(on, key, request, "chat", input, failed)).toMatchObject({ broadcast: true });
    expect(await forwardTargets(async () => everyKey, on)).toEqual(everyKey);
  });
});

describe("I/O logging: key ids and sampling", () => {
  const on = (extra: Record<string, unknown>) => ({ is_observability_io_logging_enabled: true, ...extra });
  test("a key's number is the first 13 hex digits of its hash", () => {
    expect(keyNumber(HASH)).toBe(0x0123456789abc);
    expect(keyNumber("zz")).toBe(-1);
    expect(Number.isSafeInteger(keyNumber("f".repeat(64)))).toBe(true);
  });
  test("io_logging_api_key_ids: null keeps every key, a list only those", () => {
    expect(ioLoggingKeeps("ws", on({ io_logging_api_key_ids: null }), HASH, request)).toBe(true);
    expect(ioLoggingKeeps("ws", on({ io_logging_api_key_ids: [1, keyNumber(HASH)] }), HASH, request)).toBe(true);
    expect(ioLoggingKeeps("ws", on({ io_logging_api_key_ids: [1, 2] }), HASH, request)).toBe(false);
  });
  test("io_logging_sampling_rate keeps sessions whole, about the rate of them", () => {
    let kept = 0;
    for (let s = 0; s < 2000; s++) {
      const verdicts = [0, 1, 2].map((i) =>
        ioLoggingKeeps("ws", on({ io_logging_sampling_rate: 0.25 }), HASH, { id: `g${s}-${i}`, sessionId: `s${s}`, trace: null }),
      );
      expect(new Set(verdicts).size).toBe(1);
      if (verdicts[0]) kept++;
    }
    expect(kept).toBeGreaterThan(400);
    expect(kept).toBeLessThan(600);
  });
  test("off is off whatever the rest says", () => {
    expect(ioLoggingKeeps("ws", { is_observability_io_logging_enabled: false, io_logging_sampling_rate: 1 }, HASH, request)).toBe(false);
  });
});

describe("request content by format", () => {
  test("chat: messages and tools; everything else is a parameter", () => {
    expect(completionInput("openai-chat", { model: "m", messages: [{ role: "user", content: "hi" }], tools: [{ type: "function" }], temperature: 0 })).toEqual({
      messages: [{ role: "user", content: "hi" }],
      tools: [{ type: "function" }],
      parameters: { model: "m", temperature: 0 },
    });
  });
  test("responses: instructions first, a string input as a user message", () => {
    expect(completionInput("openai-responses", { model: "m", instructions: "be brief", input: "hi" })).toEqual({
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hi" },
      ],
      tools: null,
      parameters: { model: "m" },
    });
  });
  test("messages: system first", () => {
    expect(completionInput("anthropic-messages", { model: "m", system: "s", messages: [{ role: "user", content: "hi" }], max_tokens: 9 })).toEqual({
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "hi" },
      ],
      tools: null,
      parameters: { model: "m", max_tokens: 9 },
    });
  });
  test("embeddings and video: the prompt as one user message", () => {
    expect(embeddingsInput({ model: "e", input: ["a", "b"] })).toEqual({
      messages: [{ role: "user", content: ["a", "b"] }],
      tools: null,
      parameters: { model: "e" },
    });
    expect(videoInput({ prompt: "a cat", durationSeconds: 4 })).toEqual({
      messages: [{ role: "user", content: "a cat" }],
      tools: null,
      parameters: { durationSeconds: 4 },
    });
  });
});

describe("answer content", () => {
  test("a whole result: text and refusal, reasoning, tool calls", () => {
    expect(
      resultOutput({
        content: [
          { type: "reasoning", text: "think", origin: "openai-chat" } as never,
          { type: "text", text: "a" },
          { type: "tool_call", id: "c1", name: "f", arguments: "{}" },
          { type: "refusal", refusal: "no" },
        ],
      }),
    ).toEqual({
      text: "ano",
      reasoning: "think",
      toolCalls: [{ id: "c1", name: "f", arguments: "{}" }],
    });
  });
  test("a stream: the same, from its parts", () => {
    const parts: IRStreamPart[] = [
      { type: "start", id: "u", model: "m" },
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "openai-chat" } as never },
      { type: "reasoning-delta", index: 0, text: "thi" },
      { type: "reasoning-delta", index: 0, text: "nk" },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "text" } },
      { type: "text-delta", index: 1, text: "Hel" },
      { type: "text-delta", index: 1, text: "lo" },
      { type: "block-end", index: 1 },
      { type: "block-start", index: 2, block: { type: "tool_call", id: "c1", name: "f" } },
      { type: "tool-args-delta", index: 2, delta: '{"a"' },
      { type: "tool-args-delta", index: 2, delta: ":1}" },
      { type: "block-end", index: 2 },
    ];
    const content = new StreamContent();
    for (const p of parts) content.observe(p);
    expect(content.output()).toEqual({ text: "Hello", reasoning: "think", toolCalls: [{ id: "c1", name: "f", arguments: '{"a":1}' }] });
  });
  test("kept content: messages for completions, a prompt for embeddings and video; empty text is null", () => {
    const msgs = { messages: [{ role: "user", content: "hi" }], tools: null, parameters: {} };
    expect(keptContent("chat", msgs, { text: "yo", reasoning: "", toolCalls: [] })).toEqual({
      input: { messages: [{ role: "user", content: "hi" }] },
      output: { completion: "yo", reasoning: null },
    });
    expect(keptContent("embeddings", embeddingsInput({ input: "vec me" }), null)).toEqual({
      input: { prompt: "vec me" },
      output: { completion: null, reasoning: null },
    });
    expect(keptContent("embeddings", embeddingsInput({ input: ["a", "b"] }), null).input).toEqual({ prompt: '["a","b"]' });
  });
});

test("observedGeneration: the record, its money in USD, its attempts one after another", () => {
  const record = generation("g1", "k", 2_500_000, {
    createdAt: 1000,
    latencyMs: 900,
    promptCostNanos: 2_000_000,
    completionCostNanos: 500_000,
    attempts: [
      { model: "m", provider: "p1", endpoint: "p1/m", status: 503, latency: 100 },
      { model: "m", provider: "p2", endpoint: "p2/m", status: 200, latency: 800 },
    ],
  });
  const g = observedGeneration(record, {
    operation: "chat",
    keyName: "K",
    providerName: "Provider Two",
    input: null,
    output: { text: "x", reasoning: "r", toolCalls: [] },
  });
  expect(g.cost).toEqual({ total: 0.0025, input: 0.002, output: 0.0005 });
  expect(g.attempts.map((a) => [a.provider, a.startedAt, a.latencyMs])).toEqual([
    ["p1", 1000, 100],
    ["p2", 1100, 800],
  ]);
  expect(g.endedAt).toBe(1900);
  expect(g.output).toEqual({ text: "x", toolCalls: [] });
  expect(g.status).toBe("success");
  expect(observedGeneration({ ...record, cancelled: true }, { operation: "chat", keyName: null, providerName: null, input: null, output: null }).status).toBe(
    "cancelled",
  );
  expect(
    observedGeneration({ ...record, finishReason: "error" }, { operation: "chat", keyName: null, providerName: null, input: null, output: null }).status,
  ).toBe("error");
});
