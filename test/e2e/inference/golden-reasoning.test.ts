// Golden matrix, reasoning: effort / budget settings map to each upstream's dialect; reasoning
// text reaches every client; an Anthropic thinking signature comes back to the client and, sent
// back next turn, reaches an Anthropic upstream intact and never an OpenAI one. The same for
// OpenAI Responses encrypted reasoning, the other way round, and for a Gemini thought signature.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, caseLabel, MATRIX, type Spec } from "./drivers";
import { type Harness, INBOUNDS, type Inbound, MODEL, REASONING_UPSTREAMS, startHarness, UPSTREAMS, type UpstreamKind, WIRE } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const PACKED = /^gwrs1\./;

describe("reasoning settings map to the upstream's dialect", () => {
  // OpenAI clients send an effort; an Anthropic client a budget (2048 of 4000 tokens = medium).
  const effortSpec = (model: string): Spec => ({ model, effort: "high", turns: [{ role: "user", text: "think" }] });
  const budgetSpec = (model: string): Spec => ({ model, thinkingBudget: 2048, maxTokens: 4000, turns: [{ role: "user", text: "think" }] });
  const expected: Record<Inbound, Record<UpstreamKind, Record<string, unknown>>> = {
    chat: {
      "openai-chat": { reasoning_effort: "high" },
      "openai-responses": { reasoning: { effort: "high" }, include: ["reasoning.encrypted_content"] },
      // no max tokens: the endpoint's cap (8192) is the allowance, high = 80% of it
      "anthropic-messages": { thinking: { type: "enabled", budget_tokens: 6553 }, max_tokens: 8192 },
      "azure-openai": { reasoning_effort: "high" },
      // no cap on the Bedrock endpoint: high = 80% of the default 32,000, plus Anthropic's default 4,096 for the answer
      bedrock: { inferenceConfig: { maxTokens: 29696 }, additionalModelRequestFields: { reasoning_config: { type: "enabled", budget_tokens: 25600 } } },
      // Gemini 3 takes a level; Gemini 2.5 (on Vertex here) Google's budget for high
      gemini: { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingLevel: "HIGH" } } },
      "vertex-gemini": { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 24_576 } } },
      "vertex-claude": { thinking: { type: "enabled", budget_tokens: 6553 }, max_tokens: 8192, anthropic_version: "vertex-2023-10-16" },
    },
    responses: {
      "openai-chat": { reasoning_effort: "high" },
      "openai-responses": { reasoning: { effort: "high" }, include: ["reasoning.encrypted_content"] },
      "anthropic-messages": { thinking: { type: "enabled", budget_tokens: 6553 }, max_tokens: 8192 },
      "azure-openai": { reasoning_effort: "high" },
      bedrock: { inferenceConfig: { maxTokens: 29696 }, additionalModelRequestFields: { reasoning_config: { type: "enabled", budget_tokens: 25600 } } },
      gemini: { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingLevel: "HIGH" } } },
      "vertex-gemini": { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 24_576 } } },
      "vertex-claude": { thinking: { type: "enabled", budget_tokens: 6553 }, max_tokens: 8192, anthropic_version: "vertex-2023-10-16" },
    },
    messages: {
      "openai-chat": { reasoning_effort: "medium", max_tokens: 4000 },
      "openai-responses": { reasoning: { effort: "medium" }, include: ["reasoning.encrypted_content"], max_output_tokens: 4000 },
      "anthropic-messages": { thinking: { type: "enabled", budget_tokens: 2048 }, max_tokens: 4000 },
      "azure-openai": { reasoning_effort: "medium", max_tokens: 4000 },
      bedrock: { inferenceConfig: { maxTokens: 4000 }, additionalModelRequestFields: { reasoning_config: { type: "enabled", budget_tokens: 2048 } } },
      // a budget is a level's share on Gemini 3, and stays a budget on 2.5
      gemini: { generationConfig: { maxOutputTokens: 4000, thinkingConfig: { includeThoughts: true, thinkingLevel: "MEDIUM" } } },
      "vertex-gemini": { generationConfig: { maxOutputTokens: 4000, thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } } },
      "vertex-claude": { thinking: { type: "enabled", budget_tokens: 2048 }, max_tokens: 4000 },
    },
  };
  for (const inbound of INBOUNDS) {
    for (const upstream of UPSTREAMS) {
      test(`${inbound} -> ${upstream}`, async () => {
        h.up.enqueue({ text: "ok" });
        const spec = inbound === "messages" ? budgetSpec(MODEL[upstream]) : effortSpec(MODEL[upstream]);
        await call(h, inbound, false, spec);
        expect(h.lastRequest().body).toMatchObject(expected[inbound][upstream]);
      });
    }
  }

  test("Anthropic thinking disabled sends no reasoning to an OpenAI upstream", async () => {
    h.up.enqueue({ text: "ok" });
    await h.anthropic.messages.create({
      model: MODEL["openai-responses"],
      max_tokens: 100,
      thinking: { type: "disabled" },
      messages: [{ role: "user", content: "x" }],
    });
    expect(h.lastRequest().body.reasoning).toBeUndefined();
  });
});

const THINKING = { text: ["Let me ", "think", "."], signature: "sig-XYZ==" };

/** The signature a client holds for reasoning made by each upstream kind (undefined: none). */
function expectSignature(inbound: Inbound, upstream: UpstreamKind, signature: string | undefined) {
  if (upstream === "bedrock") {
    // a Chat client's reasoning_details names Bedrock as the format; the others carry it packed
    if (inbound === "chat") expect(signature).toBe("sig-XYZ==");
    else expect(signature).toMatch(PACKED);
  } else if (WIRE[upstream] === "anthropic-messages") {
    if (inbound === "responses") expect(signature).toMatch(PACKED);
    else expect(signature).toBe("sig-XYZ==");
  } else if (inbound === "messages" || (inbound === "responses" && WIRE[upstream] === "gemini")) {
    // Anthropic clients need a signature on every thinking block: foreign reasoning gets a packed one;
    // a Responses client's Gemini thought carries its origin, so it never goes to an OpenAI upstream
    expect(signature).toMatch(PACKED);
  } else {
    expect(signature).toBeUndefined();
  }
}

describe("reasoning text and signatures reach the client", () => {
  for (const c of MATRIX) {
    test(caseLabel(c), async () => {
      h.up.enqueue({ reasoning: THINKING, text: "Answer", usage: { input: 20, output: 30, reasoning: 12 } });
      const a = await call(h, c.inbound, c.stream, { model: MODEL[c.upstream], turns: [{ role: "user", text: "q" }] });
      expect(a.text).toBe("Answer");
      // Anthropic (Claude on Vertex too) and Bedrock report no reasoning-token count apart from the output
      expect(a.usage.reasoning).toBe(WIRE[c.upstream] === "anthropic-messages" || c.upstream === "bedrock" ? 0 : 12);
      // Azure's Chat Completions return no reasoning text, only its token count
      if (!REASONING_UPSTREAMS.includes(c.upstream)) {
        expect(a.reasoning.map((r) => r.text)).toEqual([]);
        return;
      }
      expectSignature(c.inbound, c.upstream, a.reasoning[0]?.signature);
      if (WIRE[c.upstream] !== "gemini" || c.inbound === "chat") {
        // a Chat client holds Gemini's signature as a reasoning.encrypted detail (see below), not as reasoning text
        expect(a.reasoning.map((r) => r.text)).toEqual(["Let me think."]);
        return;
      }
      // Gemini's signature came on the answer's text: an item of its own after the thought, packed with its origin
      expect(a.reasoning.map((r) => r.text)).toEqual(["Let me think.", ""]);
      expect(a.reasoning[1]!.signature).toMatch(PACKED);
    });
  }
});

const QUESTION: Spec["turns"][number] = { role: "user", text: "q" };
const FOLLOW_UP: Spec["turns"][number] = { role: "user", text: "and then?" };

describe("an Anthropic signature sent back reaches Anthropic intact and never OpenAI", () => {
  for (const inbound of INBOUNDS) {
    for (const stream of [false, true]) {
      test(`${inbound} ${stream ? "stream" : "json"}`, async () => {
        h.up.enqueue({ reasoning: THINKING, text: "Answer" });
        const first = await call(h, inbound, stream, { model: MODEL["anthropic-messages"], turns: [QUESTION] });
        const turns: Spec["turns"] = [QUESTION, { role: "native", items: first.history }, FOLLOW_UP];

        h.up.enqueue({ text: "more" }, { text: "more" }, { text: "more" }, { text: "more" });
        await call(h, inbound, stream, { model: MODEL["anthropic-messages"], turns });
        expect(h.up.requests[1]!.body.messages[1]).toEqual({
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Let me think.", signature: "sig-XYZ==" },
            { type: "text", text: "Answer" },
          ],
        });

        await call(h, inbound, stream, { model: MODEL["openai-chat"], turns });
        expect(h.up.requests[2]!.body.messages[1]).toEqual({ role: "assistant", content: "Answer" });

        await call(h, inbound, stream, { model: MODEL["openai-responses"], turns });
        const sent = h.up.requests[3]!.body;
        expect(sent.input[1]).toEqual({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Answer", annotations: [] }] });
        expect(sent.input.some((i: any) => i.type === "reasoning")).toBe(false);
        expect(JSON.stringify([h.up.requests[2]!.body, sent])).not.toContain("sig-XYZ");

        await call(h, inbound, stream, { model: MODEL["azure-openai"], turns });
        expect(h.up.requests[4]!.body.messages[1]).toEqual({ role: "assistant", content: "Answer" });
        expect(JSON.stringify(h.up.requests[4]!.body)).not.toContain("sig-XYZ");
      });
    }
  }
});

describe("a Bedrock signature sent back reaches Bedrock intact and never Anthropic or OpenAI", () => {
  for (const inbound of INBOUNDS) {
    for (const stream of [false, true]) {
      test(`${inbound} ${stream ? "stream" : "json"}`, async () => {
        h.up.enqueue({ reasoning: THINKING, text: "Answer" });
        const first = await call(h, inbound, stream, { model: MODEL.bedrock, turns: [QUESTION] });
        const turns: Spec["turns"] = [QUESTION, { role: "native", items: first.history }, FOLLOW_UP];

        h.up.enqueue({ text: "more" }, { text: "more" }, { text: "more" });
        await call(h, inbound, stream, { model: MODEL.bedrock, turns });
        expect(h.up.requests[1]!.body.messages[1]).toEqual({
          role: "assistant",
          content: [{ reasoningContent: { reasoningText: { text: "Let me think.", signature: "sig-XYZ==" } } }, { text: "Answer" }],
        });

        await call(h, inbound, stream, { model: MODEL["anthropic-messages"], turns });
        expect(h.up.requests[2]!.body.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Answer" }] });
        await call(h, inbound, stream, { model: MODEL["openai-chat"], turns });
        expect(h.up.requests[3]!.body.messages[1]).toEqual({ role: "assistant", content: "Answer" });
        expect(JSON.stringify([h.up.requests[2]!.body, h.up.requests[3]!.body])).not.toContain("sig-XYZ");
      });
    }
  }

  test("redacted reasoning goes back to Bedrock as the bytes it came as", async () => {
    for (const inbound of INBOUNDS) {
      h.up.reset();
      h.up.enqueue({ reasoning: { text: "", encrypted: "cmVkYWN0ZWQ=" }, text: "Answer" }, { text: "more" });
      const first = await call(h, inbound, false, { model: MODEL.bedrock, turns: [QUESTION] });
      await call(h, inbound, true, { model: MODEL.bedrock, turns: [QUESTION, { role: "native", items: first.history }, FOLLOW_UP] });
      expect([inbound, h.up.requests[1]!.body.messages[1]]).toEqual([
        inbound,
        { role: "assistant", content: [{ reasoningContent: { redactedContent: "cmVkYWN0ZWQ=" } }, { text: "Answer" }] },
      ]);
    }
  });
});

describe("OpenAI encrypted reasoning sent back reaches a Responses upstream and never Anthropic", () => {
  for (const inbound of INBOUNDS) {
    for (const stream of [false, true]) {
      test(`${inbound} ${stream ? "stream" : "json"}`, async () => {
        h.up.enqueue({ reasoning: { text: ["Pl", "an."], encrypted: "enc-abc" }, text: "Answer" });
        // a Responses client asks for summaries, so the summary it sends back is one again
        const first = await call(h, inbound, stream, {
          model: MODEL["openai-responses"],
          effort: inbound === "messages" ? undefined : "low",
          summary: inbound === "responses" ? "auto" : undefined,
          turns: [QUESTION],
        });
        expect(first.reasoning.map((r) => r.text)).toEqual(["Plan."]);
        const turns: Spec["turns"] = [QUESTION, { role: "native", items: first.history }, FOLLOW_UP];

        h.up.enqueue({ text: "more" }, { text: "more" });
        await call(h, inbound, stream, { model: MODEL["openai-responses"], turns });
        const sent = h.up.requests[1]!.body;
        expect(sent.include).toEqual(["reasoning.encrypted_content"]);
        expect(sent.input[1]).toEqual({ type: "reasoning", id: "rs_mock1", summary: [{ type: "summary_text", text: "Plan." }], encrypted_content: "enc-abc" });
        expect(sent.input[2]).toEqual({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Answer", annotations: [] }] });

        await call(h, inbound, stream, { model: MODEL["anthropic-messages"], turns });
        expect(h.up.requests[2]!.body.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Answer" }] });
        expect(JSON.stringify(h.up.requests[2]!.body)).not.toContain("enc-abc");
      });
    }
  }
});

describe("a Gemini thought signature sent back reaches Gemini on its part, never Anthropic or Responses", () => {
  for (const inbound of INBOUNDS) {
    for (const stream of [false, true]) {
      test(`${inbound} ${stream ? "stream" : "json"}`, async () => {
        h.up.enqueue({ reasoning: THINKING, text: "Answer" });
        const first = await call(h, inbound, stream, { model: MODEL.gemini, effort: inbound === "messages" ? undefined : "low", turns: [QUESTION] });
        if (inbound === "chat") {
          expect(first.history).toEqual([
            {
              role: "assistant",
              content: "Answer",
              reasoning_details: [
                { type: "reasoning.text", text: "Let me think.", format: "google-gemini-v1", index: 0 },
                { type: "reasoning.encrypted", data: "sig-XYZ==", format: "google-gemini-v1", index: 1 },
              ],
            },
          ]);
        }
        const turns: Spec["turns"] = [QUESTION, { role: "native", items: first.history }, FOLLOW_UP];

        h.up.enqueue({ text: "more" }, { text: "more" }, { text: "more" }, { text: "more" });
        // the signature goes back on the text part it came with; thought text is never sent back
        for (const upstream of ["gemini", "vertex-gemini"] as const) {
          await call(h, inbound, stream, { model: MODEL[upstream], turns });
          expect(h.lastRequest().body.contents[1]).toEqual({ role: "model", parts: [{ text: "Answer", thoughtSignature: "sig-XYZ==" }] });
        }

        await call(h, inbound, stream, { model: MODEL["anthropic-messages"], turns });
        expect(h.lastRequest().body.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Answer" }] });
        await call(h, inbound, stream, { model: MODEL["openai-responses"], turns });
        expect(h.lastRequest().body.input.some((i: any) => i.type === "reasoning")).toBe(false);
        expect(JSON.stringify([h.up.requests[3]!.body, h.up.requests[4]!.body])).not.toContain("sig-XYZ");
      });
    }
  }
});
