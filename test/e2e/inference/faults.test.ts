// Faults: an upstream error before the first byte becomes a clean HTTP error in the inbound
// format's shape; a connection cut mid-stream ends the stream with the format's terminal
// error event and records the generation with finish_reason "error" and the usage so far;
// a client that goes away aborts the upstream request and the generation is recorded cancelled.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { parseSse, sseJson } from "../../support/sse";
import {
  expectedCost,
  fetchGeneration,
  type Harness,
  INBOUNDS,
  type Inbound,
  MODEL,
  minimalBody,
  PROVIDER,
  post,
  startHarness,
  UPSTREAMS,
  type UpstreamKind,
  WIRE,
} from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const MATRIX = INBOUNDS.flatMap((inbound) => UPSTREAMS.map((upstream) => ({ inbound, upstream })));

/** The message of each upstream API's own 500 body (the mock's, in each API's shape). */
const SERVER_ERROR: Record<UpstreamKind, string> = {
  "openai-chat": "The server had an error while processing your request.",
  "openai-responses": "The server had an error while processing your request.",
  "anthropic-messages": "mock api_error",
  "azure-openai": "The server had an error while processing your request. Sorry about that!",
  bedrock: "mock InternalServerException",
  gemini: "mock INTERNAL",
  "vertex-gemini": "mock INTERNAL",
  "vertex-claude": "mock api_error",
};

describe("upstream 500 before the first byte: an HTTP error in the inbound format's shape", () => {
  for (const { inbound, upstream } of MATRIX) {
    for (const stream of [false, true]) {
      test(`${inbound} -> ${upstream} ${stream ? "stream" : "json"}`, async () => {
        h.up.enqueue({ status: 500 });
        const res = await post(h, inbound, minimalBody(inbound, MODEL[upstream], stream ? { stream: true } : {}));
        expect(res.status).toBe(502);
        expect(res.headers.get("content-type")).toStartWith("application/json");
        const body = (await res.json()) as any;
        const message = `Provider ${PROVIDER[upstream]} failed: ${SERVER_ERROR[upstream]}`;
        if (inbound === "messages") {
          expect(body).toMatchObject({ type: "error", error: { type: "api_error", message } });
          expect(Object.keys(body.error).sort()).toEqual(["message", "type"]);
        } else {
          expect(body.error).toMatchObject({ code: 502, message, metadata: { provider_name: PROVIDER[upstream] } });
          expect(body.error.metadata.raw).toBeDefined();
        }
        const gen = await fetchGeneration(h, res.headers.get("x-generation-id")!);
        expect(gen).toMatchObject({ finish_reason: "error", streamed: stream, cancelled: false, total_cost: 0 });
        expect(gen.provider_responses).toEqual([expect.objectContaining({ status: 500, provider_name: PROVIDER[upstream] })]);
      });
    }
  }

  test("an error event right after Anthropic's message_start is still before the first byte: HTTP error", async () => {
    h.up.enqueue({ text: ["a"], streamError: { afterEvents: 1, type: "overloaded_error", message: "Overloaded" } });
    const res = await post(h, "messages", minimalBody("messages", MODEL["anthropic-messages"], { stream: true }));
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "api_error", message: "Provider an failed: Overloaded" } });
  });

  test("... and falls over to the next model in `models`, whose answer the client gets", async () => {
    h.up.enqueue({ text: ["a"], streamError: { afterEvents: 1, type: "overloaded_error", message: "Overloaded" } }, { text: ["fall", "back"] });
    const res = await post(h, "chat", minimalBody("chat", MODEL["anthropic-messages"], { stream: true, models: [MODEL["openai-chat"]] }));
    expect(res.status).toBe(200);
    const chunks = sseJson(await res.text());
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("fallback");
    expect(chunks.every((c) => c.model === MODEL["openai-chat"])).toBe(true);
    expect(h.up.requests.map((r) => r.path)).toEqual(["/v1/messages", "/v1/chat/completions"]);
  });

  test("upstream 400 is passed on as a 400 (a request error another provider would repeat)", async () => {
    h.up.enqueue({ status: 400, errorBody: { error: { message: "bad temperature", type: "invalid_request_error", param: "temperature", code: null } } });
    const res = await post(h, "chat", minimalBody("chat", MODEL["openai-chat"]));
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toMatchObject({ code: 400, message: "Provider oc rejected the request: bad temperature" });
  });
});

/** The last event of a stream cut by the upstream, checked against the inbound format's error grammar. */
function expectTerminalError(inbound: Inbound, text: string) {
  const events = parseSse(text);
  const last = events.at(-1)!;
  if (inbound === "chat") {
    expect(events.some((e) => e.data === "[DONE]")).toBe(false);
    const chunk = JSON.parse(last.data);
    expect(chunk.object).toBe("chat.completion.chunk");
    expect(chunk.error).toMatchObject({ code: 502, metadata: { error_type: "provider_unavailable" } });
    expect(typeof chunk.error.message).toBe("string");
    expect(chunk.choices).toEqual([{ index: 0, delta: { content: "" }, finish_reason: "error" }]);
  } else if (inbound === "responses") {
    const event = JSON.parse(last.data);
    expect(event.type).toBe("response.failed");
    expect(event.sequence_number).toBe(events.length - 1);
    expect(event.response.status).toBe("failed");
    expect(event.response.error).toMatchObject({ code: "server_error" });
    expect(typeof event.response.error.message).toBe("string");
  } else {
    expect(last.event).toBe("error");
    expect(JSON.parse(last.data)).toMatchObject({ type: "error", error: { type: "api_error" } });
  }
}

/** Text the client received before the cut. */
function streamedText(inbound: Inbound, text: string): string {
  const data = sseJson(text);
  if (inbound === "chat") return data.map((c) => c.choices?.[0]?.delta?.content ?? "").join("");
  if (inbound === "responses")
    return data
      .filter((e) => e.type === "response.output_text.delta")
      .map((e) => e.delta)
      .join("");
  return data
    .filter((e) => e.type === "content_block_delta")
    .map((e) => e.delta.text ?? "")
    .join("");
}

// Events before the cut, per upstream kind, so that exactly the first text chunk ("Hel") is through.
// (Azure's stream opens with its prompt-filter chunk; each of Gemini's events carries text.)
const CUT_AFTER: Record<UpstreamKind, number> = {
  "openai-chat": 2,
  "openai-responses": 5,
  "anthropic-messages": 4,
  "azure-openai": 3,
  bedrock: 2,
  gemini: 1,
  "vertex-gemini": 1,
  "vertex-claude": 4,
};

describe("upstream connection cut mid-stream: terminal error event, generation recorded as error", () => {
  for (const { inbound, upstream } of MATRIX) {
    test(`${inbound} -> ${upstream}`, async () => {
      const usage = { input: 100, output: 40, cached: 30, cacheWrite: 20 };
      h.up.enqueue({ text: ["Hel", "lo", " there"], usage, failAfterEvents: CUT_AFTER[upstream] });
      const res = await post(h, inbound, minimalBody(inbound, MODEL[upstream], { stream: true }));
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(streamedText(inbound, text)).toBe("Hel");
      expectTerminalError(inbound, text);
      // the runtime's own hints (Bun: "pass `verbose: true` ... to fetch()") are not for the client
      expect(text).toContain("The provider stream failed: ");
      expect(text).not.toContain("verbose");
      expect(text).not.toContain("fetch()");

      const gen = await fetchGeneration(h, res.headers.get("x-generation-id")!);
      expect(gen).toMatchObject({ finish_reason: "error", streamed: true, cancelled: false, provider_name: PROVIDER[upstream] });
      // the output count never came: "Hel" is counted (1 token) and the usage marked estimated
      expect(gen).toMatchObject({ tokens_completion: 1, usage_estimated: true });
      if (WIRE[upstream] === "anthropic-messages") {
        // Anthropic reports the prompt side in message_start: that much is known exactly
        expect(gen).toMatchObject({ tokens_prompt: 100, native_tokens_cached: 30, native_tokens_cache_write: 20 });
        expect(gen.total_cost).toBe(expectedCost({ input: 100, output: 1, cached: 30, cacheWrite: 20 }));
      } else if (WIRE[upstream] === "gemini") {
        // Gemini's every event carries the prompt side (it has no cache writes to report)
        expect(gen).toMatchObject({ tokens_prompt: 100, native_tokens_cached: 30, native_tokens_cache_write: 0 });
        expect(gen.total_cost).toBe(expectedCost({ input: 100, output: 1, cached: 30 }));
      } else {
        // OpenAI formats and Bedrock report usage only at the end: the prompt ("hi") is counted too
        expect(gen).toMatchObject({ tokens_prompt: 1, native_tokens_cached: 0 });
        expect(gen.total_cost).toBe(expectedCost({ input: 1, output: 1 }));
      }
    });
  }

  test("an in-stream provider error (Anthropic overloaded_error) ends the stream with the mapped event", async () => {
    h.up.enqueue({ text: ["a", "b"], streamError: { afterEvents: 4, type: "overloaded_error", message: "Overloaded" } });
    const res = await post(h, "chat", minimalBody("chat", MODEL["anthropic-messages"], { stream: true }));
    const last = JSON.parse(parseSse(await res.text()).at(-1)!.data);
    expect(last.error).toMatchObject({ code: 529, message: expect.stringContaining("Overloaded") });
    expect(last.choices[0].finish_reason).toBe("error");
  });
});

describe("client abort mid-stream: the upstream request is aborted and the generation recorded cancelled", () => {
  for (const { inbound, upstream } of MATRIX) {
    test(`${inbound} -> ${upstream}`, async () => {
      h.up.enqueue({ text: Array.from({ length: 40 }, (_, i) => `w${i} `), chunkDelayMs: 50 });
      const abort = new AbortController();
      const res = await post(h, inbound, minimalBody(inbound, MODEL[upstream], { stream: true }), {}, abort.signal);
      expect(res.status).toBe(200);
      const id = res.headers.get("x-generation-id")!;
      const reader = res.body!.getReader();
      let seen = "";
      while (!seen.includes("w1 ")) seen += new TextDecoder().decode((await reader.read()).value);
      const abortedAt = Date.now();
      abort.abort();
      await reader.cancel().catch(() => {});

      const [sent] = await h.up.waitForRequests(1, 2000);
      expect(sent!.abortedAt).toBeDefined();
      expect(sent!.abortedAt! - abortedAt).toBeLessThan(500);

      const gen = await fetchGeneration(h, id);
      expect(gen).toMatchObject({ cancelled: true, streamed: true, provider_name: PROVIDER[upstream] });
    });
  }
});
