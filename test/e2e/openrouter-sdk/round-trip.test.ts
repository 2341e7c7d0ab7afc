// A client hands the previous turn's reasoning back through the SDK; the upstream that produced
// it must receive its signature / encrypted payload intact.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ChatMessages, InputsUnion } from "@openrouter/sdk/models";
import { result, type SdkHarness, startSdkHarness, unknownParts } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

const TURN = { reasoning: { text: "Thinking hard.", signature: "SIG-123", encrypted: "ENC-456" }, text: "Answer.", usage: { input: 10, output: 20 } };

/** The reasoning an upstream received in the follow-up request, in its own format. */
function upstreamReasoning(model: string): unknown {
  const body = h.up.requests.at(-1)!.body;
  if (model === "acme/anth") {
    const assistant = body.messages.find((m: any) => m.role === "assistant");
    return assistant.content.filter((b: any) => b.type === "thinking" || b.type === "redacted_thinking");
  }
  return body.input.filter((i: any) => i.type === "reasoning").map((i: any) => i.encrypted_content);
}

const EXPECTED: Record<string, unknown> = {
  "acme/anth": [
    { type: "thinking", thinking: "Thinking hard.", signature: "SIG-123" },
    { type: "redacted_thinking", data: "ENC-456" },
  ],
  "acme/resp": ["ENC-456"],
};

for (const model of ["acme/anth", "acme/resp"]) {
  describe(`reasoning round trip through ${model}`, () => {
    test("chat.send: reasoning_details from the answer go back in the assistant message", async () => {
      h.up.enqueue(TURN);
      const first = result(await h.client.chat.send({ chatRequest: { model, messages: [{ role: "user", content: "q" }] } }));
      const msg = first.choices[0]!.message;
      h.up.enqueue({ text: "second", usage: { input: 1, output: 1 } });
      const messages: ChatMessages[] = [
        { role: "user", content: "q" },
        { role: "assistant", content: msg.content as string, reasoningDetails: msg.reasoningDetails },
        { role: "user", content: "and?" },
      ];
      const second = result(await h.client.chat.send({ chatRequest: { model, messages } }));
      expect(second.choices[0]!.message.content).toBe("second");
      expect(upstreamReasoning(model)).toEqual(EXPECTED[model]);
    });

    test("responses.send: the output items go back as input", async () => {
      h.up.enqueue(TURN);
      const first = result(await h.client.responses.send({ responsesRequest: { model, input: "q" } }));
      expect(unknownParts(first)).toEqual([]);
      h.up.enqueue({ text: "second", usage: { input: 1, output: 1 } });
      // The SDK's output item types are a superset of its input item types for these two kinds.
      const input = [{ role: "user", content: "q" }, ...first.output, { role: "user", content: "and?" }] as InputsUnion;
      const second = result(await h.client.responses.send({ responsesRequest: { model, input } }));
      expect(second.status).toBe("completed");
      expect(upstreamReasoning(model)).toEqual(EXPECTED[model]);
    });
  });
}
