// Golden matrix, text side: every inbound format x every upstream kind x stream/non-stream,
// through the real SDKs. Plain multi-chunk text, usage and cost, instructions and history in
// the upstream's own shape, max-tokens family, stop sequences and finish reasons.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, caseLabel, FINISH, MATRIX, type Spec } from "./drivers";
import {
  expectedCost,
  type Harness,
  INBOUNDS,
  MODEL,
  startHarness,
  UPSTREAM_MODEL,
  UPSTREAMS,
  type UpstreamKind,
  upstreamPath,
  WIRE,
  type Wire,
} from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const USAGE = { input: 100, output: 40, cached: 30, cacheWrite: 20, reasoning: 10 };

describe("plain text, usage and cost", () => {
  for (const c of MATRIX) {
    test(caseLabel(c), async () => {
      h.up.enqueue({ text: ["Hel", "lo, ", "wor", "ld"], usage: USAGE });
      const answer = await call(h, c.inbound, c.stream, { model: MODEL[c.upstream], turns: [{ role: "user", text: "Say hello" }] });
      expect(answer.text).toBe("Hello, world");
      expect(answer.toolCalls).toEqual([]);
      expect(answer.finish).toBe(FINISH[c.inbound].stop);
      expect(answer.model).toBe(MODEL[c.upstream]);
      expect(answer.id).toMatch(/^gen-/);
      // Anthropic (Claude on Vertex too) and Bedrock report no separate reasoning-token count; Gemini reports no cache writes (its 20 are plain prompt tokens)
      const wire = WIRE[c.upstream];
      const reasoning = wire === "anthropic-messages" || wire === "bedrock" ? 0 : 10;
      const usage = wire === "gemini" ? { ...USAGE, cacheWrite: 0 } : USAGE;
      expect(answer.usage).toEqual({ input: 100, output: 40, cached: 30, cacheWrite: usage.cacheWrite, reasoning, cost: expectedCost(usage) });
      expect([expectedCost(USAGE), expectedCost({ ...USAGE, cacheWrite: 0 })]).toEqual([0.000158, 0.000153]);

      const sent = h.lastRequest();
      expect(sent.path).toBe(upstreamPath(c.upstream, c.stream));
      // Bedrock: the model and the streaming are in the path, and the SigV4 signature in the headers
      if (c.upstream === "bedrock") {
        expect([sent.body.model, sent.body.stream]).toEqual([undefined, undefined]);
        expect(sent.headers.authorization).toMatch(
          /^AWS4-HMAC-SHA256 Credential=AKIAMOCKBEDROCK00001\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
        );
        expect(sent.headers.accept).toBe(c.stream ? "application/vnd.amazon.eventstream" : "application/json");
      }
      // Google's APIs name the model in the path, and the stream switch too (Claude on Vertex keeps `stream`)
      else expect(sent.body.model).toBe(wire === "gemini" || c.upstream === "vertex-claude" ? undefined : UPSTREAM_MODEL[c.upstream]);
      if (wire === "openai-chat") {
        expect(sent.body.stream ?? false).toBe(c.stream);
        if (c.stream) expect(sent.body.stream_options).toEqual({ include_usage: true });
      } else if (c.upstream !== "bedrock") expect(sent.body.stream).toBe(wire === "gemini" ? undefined : c.stream);
    });
  }
});

describe("usage in each inbound format's own convention", () => {
  for (const inbound of INBOUNDS) {
    test(`${inbound}: cached and cache-write tokens, raw fields`, async () => {
      h.up.enqueue({ text: "ok", usage: USAGE });
      const a = await call(h, inbound, false, { model: MODEL["openai-responses"], turns: [{ role: "user", text: "x" }] });
      const cost = expectedCost(USAGE);
      if (inbound === "chat") {
        expect(a.raw.usage).toEqual({
          prompt_tokens: 100,
          completion_tokens: 40,
          total_tokens: 140,
          cost,
          is_byok: false,
          cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.000078, upstream_inference_completions_cost: 0.00008 },
          prompt_tokens_details: { cached_tokens: 30, cache_write_tokens: 20 },
          completion_tokens_details: { reasoning_tokens: 10 },
        });
      } else if (inbound === "responses") {
        expect(a.raw.usage).toEqual({
          input_tokens: 100,
          input_tokens_details: { cached_tokens: 30, cache_write_tokens: 20 },
          output_tokens: 40,
          output_tokens_details: { reasoning_tokens: 10 },
          total_tokens: 140,
          cost,
          is_byok: false,
          cost_details: { upstream_inference_cost: null, upstream_inference_input_cost: 0.000078, upstream_inference_output_cost: 0.00008 },
        });
      } else {
        expect(a.raw.usage).toMatchObject({
          input_tokens: 50,
          output_tokens: 40,
          cache_read_input_tokens: 30,
          cache_creation_input_tokens: 20,
          cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 0 },
          output_tokens_details: { thinking_tokens: 10 },
          cost,
        });
      }
    });
  }
});

const HISTORY: Spec["turns"] = [
  { role: "user", text: "Hi" },
  { role: "assistant", text: "Hello!" },
  { role: "user", text: "What is 2+2?" },
];

/** The history above, as each upstream body format must receive it. */
function expectHistory(upstream: Wire, body: any) {
  if (upstream === "gemini") {
    expect(body.systemInstruction).toEqual({ parts: [{ text: "Be terse." }] });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "Hi" }] },
      { role: "model", parts: [{ text: "Hello!" }] },
      { role: "user", parts: [{ text: "What is 2+2?" }] },
    ]);
  } else if (upstream === "openai-chat") {
    expect(body.messages).toEqual([
      { role: "system", content: "Be terse." },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello!" },
      { role: "user", content: "What is 2+2?" },
    ]);
  } else if (upstream === "openai-responses") {
    expect(body.input).toEqual([
      { type: "message", role: "system", content: [{ type: "input_text", text: "Be terse." }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Hello!", annotations: [] }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "What is 2+2?" }] },
    ]);
    expect(body.store).toBe(false);
  } else if (upstream === "bedrock") {
    expect(body.system).toEqual([{ text: "Be terse." }]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ text: "Hi" }] },
      { role: "assistant", content: [{ text: "Hello!" }] },
      { role: "user", content: [{ text: "What is 2+2?" }] },
    ]);
  } else {
    expect(body.system).toEqual([{ type: "text", text: "Be terse." }]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Hi" }] },
      { role: "assistant", content: [{ type: "text", text: "Hello!" }] },
      { role: "user", content: [{ type: "text", text: "What is 2+2?" }] },
    ]);
  }
}

describe("system instructions and multi-turn history reach the upstream in its own shape", () => {
  for (const c of MATRIX) {
    test(caseLabel(c), async () => {
      h.up.enqueue({ text: "4" });
      const a = await call(h, c.inbound, c.stream, { model: MODEL[c.upstream], system: "Be terse.", turns: HISTORY });
      expect(a.text).toBe("4");
      expectHistory(WIRE[c.upstream], h.lastRequest().body);
    });
  }

  test("chat developer role and a Responses developer message become the system prompt", async () => {
    h.up.enqueue({ text: "a" }, { text: "b" });
    await h.openai.chat.completions.create({
      model: MODEL["anthropic-messages"],
      messages: [
        { role: "developer", content: "Rule one." },
        { role: "user", content: "go" },
      ],
    });
    expect(h.lastRequest().body.system).toEqual([{ type: "text", text: "Rule one." }]);
    await h.openai.responses.create({
      model: MODEL["anthropic-messages"],
      input: [
        { role: "developer", content: "Rule two." },
        { role: "user", content: "go" },
      ],
    });
    expect(h.lastRequest().body.system).toEqual([{ type: "text", text: "Rule two." }]);
  });
});

/** max tokens field per upstream kind. */
function upstreamMaxTokens(upstream: UpstreamKind, body: any): unknown {
  if (WIRE[upstream] === "gemini") return body.generationConfig?.maxOutputTokens;
  if (WIRE[upstream] === "openai-chat") return body.max_tokens ?? body.max_completion_tokens;
  if (upstream === "openai-responses") return body.max_output_tokens;
  if (upstream === "bedrock") return body.inferenceConfig?.maxTokens;
  return body.max_tokens;
}

describe("max tokens and finish reason length", () => {
  for (const c of MATRIX) {
    test(caseLabel(c), async () => {
      h.up.enqueue({ text: ["Once upon", " a"], finish: "length", usage: { input: 5, output: 50 } });
      const a = await call(h, c.inbound, c.stream, { model: MODEL[c.upstream], maxTokens: 50, turns: [{ role: "user", text: "story" }] });
      expect(a.text).toBe("Once upon a");
      expect(a.finish).toBe(FINISH[c.inbound].length);
      expect(upstreamMaxTokens(c.upstream, h.lastRequest().body)).toBe(50);
      expect(a.usage.cost).toBe(expectedCost({ input: 5, output: 50 }));
    });
  }

  test("chat's deprecated max_tokens is the same setting", async () => {
    for (const upstream of UPSTREAMS) {
      h.up.enqueue({ text: "x" });
      await h.openai.chat.completions.create({ model: MODEL[upstream], max_tokens: 77, messages: [{ role: "user", content: "x" }] });
      expect(upstreamMaxTokens(upstream, h.lastRequest().body)).toBe(77);
    }
  });

  // OpenAI's Responses API refuses max_output_tokens under 16; the others take 1 and up
  test("a limit under the upstream API's minimum is raised to it, from every client", async () => {
    for (const inbound of INBOUNDS) {
      for (const upstream of UPSTREAMS) {
        h.up.enqueue({ text: "x" });
        await call(h, inbound, false, { model: MODEL[upstream], maxTokens: 5, turns: [{ role: "user", text: "x" }] });
        expect([inbound, upstream, upstreamMaxTokens(upstream, h.lastRequest().body)]).toEqual([inbound, upstream, upstream === "openai-responses" ? 16 : 5]);
      }
    }
  });

  test("no max tokens from an OpenAI client: the Anthropic upstream gets the endpoint's cap", async () => {
    h.up.enqueue({ text: "x" });
    await call(h, "chat", false, { model: MODEL["anthropic-messages"], turns: [{ role: "user", text: "x" }] });
    expect(h.lastRequest().body.max_tokens).toBe(8192);
  });
});

describe("stop sequences and finish reason stop_sequence", () => {
  const withStop = MATRIX.filter((c) => c.inbound !== "responses"); // the Responses API has no stop sequences
  for (const c of withStop) {
    test(caseLabel(c), async () => {
      h.up.enqueue({ text: ["one two"], finish: "stop_sequence", stopSequence: "END" });
      const a = await call(h, c.inbound, c.stream, { model: MODEL[c.upstream], stop: ["END", "STOP"], turns: [{ role: "user", text: "count" }] });
      expect(a.text).toBe("one two");
      const body = h.lastRequest().body;
      const wire = WIRE[c.upstream];
      if (wire === "anthropic-messages") expect(body.stop_sequences).toEqual(["END", "STOP"]);
      else if (wire === "openai-chat") expect(body.stop).toEqual(["END", "STOP"]);
      else if (wire === "gemini") expect(body.generationConfig.stopSequences).toEqual(["END", "STOP"]);
      // Claude on Bedrock names the sequence only in the response field the request asks for
      else if (wire === "bedrock")
        expect([body.inferenceConfig.stopSequences, body.additionalModelResponseFieldPaths]).toEqual([["END", "STOP"], ["/delta/stop_sequence"]]);
      // OpenAI and Gemini upstreams only say they stopped; Anthropic (Claude on Vertex and on Bedrock too) names the sequence that ended the answer
      const named = wire === "anthropic-messages" || wire === "bedrock";
      if (c.inbound === "messages") {
        expect(a.finish).toBe(named ? "stop_sequence" : "end_turn");
        expect(a.stopSequence).toBe(named ? "END" : null);
      } else expect(a.finish).toBe("stop");
    });
  }
});
