/** The helpers every native sender shares: derived ids, the trace plan, messages as text, headers, status classes. */
import { expect, test } from "bun:test";
import { inputMessages, outputMessages } from "../../../src/observability/native/chat-messages";
import { generationMetadata } from "../../../src/observability/native/generation-metadata";
import { derivedDecimal64, derivedHex, derivedUuidV4, derivedUuidV7 } from "../../../src/observability/native/ids";
import { classifyResponse } from "../../../src/observability/native/post-json";
import { destinationHeaders } from "../../../src/observability/native/request-headers";
import { planTrace, traceHexId, traceUuidV7 } from "../../../src/observability/native/trace-plan";
import { chatGeneration, destinationOf, STARTED_AT } from "../../support/observed-generation";

test("derived ids are stable, distinct per part and well formed", () => {
  expect(derivedHex(16, "a", "b")).toBe(derivedHex(16, "a", "b"));
  expect(derivedHex(16, "a", "b")).not.toBe(derivedHex(16, "ab"));
  expect(derivedHex(8, "x")).toMatch(/^[0-9a-f]{16}$/);
  expect(derivedDecimal64("x")).toMatch(/^[1-9]\d*$/);
  expect(BigInt(derivedDecimal64("x"))).toBeLessThan(2n ** 64n);
  const v7 = derivedUuidV7(STARTED_AT, "span", "k");
  expect(v7).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // the first 48 bits are the time, so Opik orders by it
  expect(Number.parseInt(v7.replace(/-/g, "").slice(0, 12), 16)).toBe(STARTED_AT);
  expect(derivedUuidV4("r")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test("the trace plan: names default to the model, a caller's 32-hex trace id is kept, others are derived", () => {
  const own = planTrace(chatGeneration({ trace: null }));
  expect([own.traceName, own.generationName, own.top]).toEqual(["acme/alpha", "acme/alpha", own.generation]);
  expect(own.spans.map((s) => s.role)).toEqual(["generation", "attempt", "attempt"]);
  const hex = "0af7651916cd43dd8448eb211c80319c";
  expect(traceHexId(planTrace(chatGeneration({ trace: { trace_id: hex.toUpperCase() } })))).toBe(hex);
  const shared = planTrace(chatGeneration({ trace: { trace_id: "conv-9", span_name: "step", parent_span_id: "caller-span" } }));
  expect(shared.spans.map((s) => s.role)).toEqual(["wrapper", "generation", "attempt", "attempt"]);
  expect(shared.callerParentSpanId).toBe("caller-span");
  expect(shared.custom).toEqual({});
  // two generations of one caller trace on one day share the trace id in every format
  const a = chatGeneration({ id: "g1", trace: { trace_id: "conv-9" } });
  const b = chatGeneration({ id: "g2", trace: { trace_id: "conv-9" }, startedAt: STARTED_AT + 3_600_000 });
  expect(traceHexId(planTrace(a))).toBe(traceHexId(planTrace(b)));
  expect(traceUuidV7(planTrace(a), a)).toBe(traceUuidV7(planTrace(b), b));
});

test("messages of every inbound format become role and text, multimodal parts left out", () => {
  expect(
    inputMessages({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "hi" },
            { type: "image", source: {} },
          ],
        },
      ],
      tools: null,
      parameters: {},
    }),
  ).toEqual([{ role: "user", content: "hi" }]);
  expect(inputMessages({ messages: "just text", tools: null, parameters: {} })).toEqual([{ role: "user", content: "just text" }]);
  const responsesItems = [
    { type: "message", role: "user", content: [{ type: "input_text", text: "q" }] },
    { type: "function_call_output", call_id: "c", output: "42" },
  ];
  expect(inputMessages({ messages: responsesItems, tools: null, parameters: {} })).toEqual([
    { role: "user", content: "q" },
    { role: "function_call_output", content: "42" },
  ]);
  expect(outputMessages({ text: "", toolCalls: [{ id: "c1" }] })).toEqual([{ role: "assistant", content: '[{"id":"c1"}]' }]);
});

test("user headers are merged under the auth and protocol headers, whatever their spelling", () => {
  const destination = destinationOf("datadog", { headers: { Authorization: "user", "Content-Type": "text/plain", "User-Agent": "mine", "X-A": "1" } });
  expect(destinationHeaders(destination, { authorization: "Bearer real" })).toEqual({
    "User-Agent": "mine",
    "X-A": "1",
    "content-type": "application/json",
    authorization: "Bearer real",
  });
});

test("Retry-After as an HTTP date is seconds from the clock", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");
  const result = { kind: "response" as const, status: 503, headers: new Headers({ "retry-after": "Sun, 22 Nov 2026 12:01:30 GMT" }), body: new Uint8Array() };
  expect(classifyResponse(result, now)).toEqual({ kind: "retry", reason: "destination answered 503", afterSeconds: 90 });
  expect(classifyResponse({ kind: "refused", reason: "must use https" }, now)).toMatchObject({ kind: "failed" });
  expect(classifyResponse({ kind: "failed", reason: "x", timedOut: true }, now)).toEqual({ kind: "retry", reason: "destination timed out" });
});

test("openrouter_generation holds only the categories the destination opted into", () => {
  const g = chatGeneration();
  const plain = generationMetadata(g, destinationOf("weave", {}), planTrace(g));
  expect(plain.openrouter_generation).toBeUndefined();
  expect(plain).toMatchObject({ customer_tier: "gold", api_key_name: "Production key", user_id: "end-user-7", trace_id: "caller-trace-1" });
  const opted = generationMetadata(g, destinationOf("weave", {}, { broadcastGenerationCost: true, broadcastGenerationIdentity: true }), planTrace(g));
  expect(opted.openrouter_generation).toMatchObject({
    is_byok: false,
    cached_tokens: 20,
    usage: { total_tokens: 165, cost: 0.00042 },
    workspace_id: "ws-1",
    creator_user_id: "user-owner",
  });
  expect((opted.openrouter_generation as Record<string, unknown>).attempts).toBeUndefined();
});
