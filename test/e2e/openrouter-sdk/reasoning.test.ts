// Reasoning from each upstream format, read back through both OpenRouter SDK inference calls.
// Reasoning details and output items are forward-compatible unions in the SDK, so every check
// also asserts that nothing fell back to an UNKNOWN variant.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ChatStreamChunk, ReasoningDetailUnion, StreamEvents } from "@openrouter/sdk/models";
import { drain, result, type SdkHarness, startSdkHarness, unknownParts } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

const TURN = {
  reasoning: { text: ["Think", "ing hard."], signature: "SIG-123", encrypted: "ENC-456" },
  text: "Answer.",
  usage: { input: 10, output: 20, reasoning: 12 },
};
const user = [{ role: "user" as const, content: "q" }];

/**
 * What each upstream can express: chat has plain text only; Responses adds encrypted content;
 * Anthropic a signature and redacted thinking, and reports no reasoning-token count. On the
 * Responses side, Anthropic's signature and redacted data travel as the gateway's own opaque
 * `encrypted_content` (one per reasoning item; round-trip.test.ts hands them back).
 */
const CASES = [
  { model: "acme/chat", signature: false, encrypted: false, reasoningTokens: 12, opaqueItems: 0 },
  { model: "acme/resp", signature: false, encrypted: true, reasoningTokens: 12, opaqueItems: 1 },
  { model: "acme/anth", signature: true, encrypted: true, reasoningTokens: 0, opaqueItems: 2 },
];

function detailText(details: ReasoningDetailUnion[]): string {
  return details.map((d) => (d.type === "reasoning.text" ? (d.text ?? "") : d.type === "reasoning.summary" ? d.summary : "")).join("");
}

for (const c of CASES) {
  describe(`reasoning from ${c.model}`, () => {
    test("chat.send: reasoning, reasoning_details and reasoning tokens", async () => {
      h.up.enqueue(TURN);
      const res = result(await h.client.chat.send({ chatRequest: { model: c.model, messages: user, reasoning: { effort: "medium" } } }));
      expect(unknownParts(res)).toEqual([]);
      const msg = res.choices[0]!.message;
      expect(msg.content).toBe("Answer.");
      expect(msg.reasoning).toBe("Thinking hard.");
      const details = msg.reasoningDetails ?? [];
      expect(detailText(details)).toBe("Thinking hard.");
      const signed = details.find((d) => d.type === "reasoning.text" && d.signature);
      expect(signed && signed.type === "reasoning.text" ? signed.signature : null).toBe(c.signature ? "SIG-123" : null);
      const enc = details.find((d) => d.type === "reasoning.encrypted");
      expect(enc && enc.type === "reasoning.encrypted" ? enc.data : null).toBe(c.encrypted ? "ENC-456" : null);
      expect(res.usage?.completionTokensDetails?.reasoningTokens).toBe(c.reasoningTokens);
    });

    test("chat.send stream: reasoning deltas reassemble; details keep signature and encrypted data", async () => {
      h.up.enqueue(TURN);
      const chunks: ChatStreamChunk[] = await drain(await h.client.chat.send({ chatRequest: { model: c.model, messages: user, stream: true } }));
      expect(unknownParts(chunks)).toEqual([]);
      expect(chunks.map((ch) => ch.choices[0]?.delta.reasoning ?? "").join("")).toBe("Thinking hard.");
      const details = chunks.flatMap((ch) => ch.choices[0]?.delta.reasoningDetails ?? []);
      expect(detailText(details)).toBe("Thinking hard.");
      const sig = details.flatMap((d) => (d.type === "reasoning.text" && d.signature ? [d.signature] : [])).join("");
      expect(sig).toBe(c.signature ? "SIG-123" : "");
      const enc = details.flatMap((d) => (d.type === "reasoning.encrypted" ? [d.data] : []));
      expect(enc).toEqual(c.encrypted ? ["ENC-456"] : []);
      expect(chunks.map((ch) => ch.choices[0]?.delta.content ?? "").join("")).toBe("Answer.");
      expect(chunks.at(-1)!.usage?.completionTokensDetails?.reasoningTokens).toBe(c.reasoningTokens);
    });

    test("responses.send: a reasoning output item before the message", async () => {
      h.up.enqueue(TURN);
      const res = result(await h.client.responses.send({ responsesRequest: { model: c.model, input: "q", reasoning: { effort: "medium" } } }));
      expect(unknownParts(res)).toEqual([]);
      const kinds = res.output.map((o) => o.type);
      expect(kinds.indexOf("reasoning")).toBeGreaterThanOrEqual(0);
      expect(kinds.indexOf("reasoning")).toBeLessThan(kinds.indexOf("message"));
      const items = res.output.flatMap((o) => (o.type === "reasoning" ? [o] : []));
      const text = items.map((r) => [...r.summary.map((s) => s.text), ...(r.content ?? []).map((p) => p.text)].join("")).join("");
      expect(text).toBe("Thinking hard.");
      const opaque = items.flatMap((r) => (r.encryptedContent ? [r.encryptedContent] : []));
      expect(opaque.length).toBe(c.opaqueItems);
      if (c.model === "acme/resp") expect(opaque).toEqual(["ENC-456"]);
      expect(res.usage?.outputTokensDetails.reasoningTokens).toBe(c.reasoningTokens);
    });

    test("responses.send stream: reasoning events parse and the completed response agrees", async () => {
      h.up.enqueue(TURN);
      const events: StreamEvents[] = await drain(await h.client.responses.send({ responsesRequest: { model: c.model, input: "q", stream: true } }));
      expect(unknownParts(events)).toEqual([]);
      const deltas = events.flatMap((e) => (e.type === "response.reasoning_summary_text.delta" || e.type === "response.reasoning_text.delta" ? [e.delta] : []));
      expect(deltas.join("")).toBe("Thinking hard.");
      const last = events.at(-1)!;
      if (last.type !== "response.completed") throw new Error(`last event ${last.type}`);
      const items = last.response.output.flatMap((o) => (o.type === "reasoning" ? [o] : []));
      expect(items.length).toBeGreaterThan(0);
      expect(items.filter((r) => r.encryptedContent).length).toBe(c.opaqueItems);
    });
  });
}
