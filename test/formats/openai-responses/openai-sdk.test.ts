import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import fc from "fast-check";
import OpenAI from "openai";
import { openaiResponsesInbound } from "../../../src/formats/openai-responses";
import type { IRAssistantPart, IRStreamPart } from "../../../src/ir/types";
import { encodeParts } from "../encode-parts";
import { ctx, encodedUsage, expectedOutput, irStream, NOW, settlement, usage } from "./fixtures";

/** The real openai SDK (v7) consuming our SSE: its ResponseStream validates indexes and item ids. */

beforeAll(() => setSystemTime(NOW));
afterAll(() => setSystemTime());

function clientServing(body: string, contentType = "text/event-stream"): OpenAI {
  return new OpenAI({
    apiKey: "test",
    baseURL: "http://gateway.test/api/v1",
    maxRetries: 0,
    fetch: async () => new Response(body, { headers: { "content-type": contentType } }),
  });
}

const encodeAll = (parts: IRStreamPart[]) => encodeParts(openaiResponsesInbound.createStreamEncoder(ctx), parts, settlement);

describe("openai SDK compatibility", () => {
  test("responses.stream() → finalResponse() rebuilds the exact output", async () => {
    const stream = clientServing(encodeAll(irStream)).responses.stream({ model: "openai/gpt-5", input: "hi" });
    const deltas: string[] = [];
    stream.on("response.output_text.delta", (event) => deltas.push(event.snapshot));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(["Checking ", "Checking both."]);
    expect(final.id).toBe("gen-1");
    expect(final.status).toBe("completed");
    expect(final.output_text).toBe("Checking both.");
    expect(final.usage as unknown).toEqual(encodedUsage);
    // The SDK adds its parse helpers (`parsed`, `parsed_arguments`) to what we sent.
    expect(final.output as unknown).toEqual([
      expectedOutput[0],
      { ...expectedOutput[1], content: [{ type: "output_text", text: "Checking both.", annotations: [], parsed: null }] },
      { ...expectedOutput[2], parsed_arguments: null },
      { ...expectedOutput[3], parsed_arguments: null },
    ]);
  });

  test("a failed stream still resolves with the partial output and the error", async () => {
    const sse = encodeAll([
      { type: "start", id: "u", model: "m" },
      { type: "block-start", index: 0, block: { type: "text" } },
      { type: "text-delta", index: 0, text: "Hal" },
      { type: "error", status: 502, message: "Upstream went away" },
    ]);
    const final = await clientServing(sse).responses.stream({ model: "m", input: "hi" }).finalResponse();
    expect(final.status).toBe("failed");
    expect(final.error).toEqual({ code: "server_error", message: "Upstream went away" });
    expect(final.output_text).toBe("Hal");
  });

  test("the non-streamed result parses through responses.create()", async () => {
    const body = openaiResponsesInbound.encodeResult(
      { id: "u", model: "m", content: [{ type: "text", text: "Hi there" }], finishReason: "stop", usage },
      ctx,
      settlement,
    );
    const response = await clientServing(JSON.stringify(body), "application/json").responses.create({ model: "m", input: "hi" });
    expect(response.output_text).toBe("Hi there");
    expect(response.status).toBe("completed");
  });

  test("property: any sequence of blocks streams to what encodeResult would answer", async () => {
    const chunks = fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 });
    const block = fc.oneof(
      fc.record({ kind: fc.constant("text" as const), chunks }),
      fc.record({ kind: fc.constant("refusal" as const), chunks }),
      fc.record({
        kind: fc.constant("reasoning" as const),
        chunks,
        origin: fc.constantFrom("openai-responses" as const, "anthropic-messages" as const),
        summary: fc.boolean(),
        encrypted: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined }),
      }),
      fc.record({ kind: fc.constant("tool_call" as const), chunks, name: fc.constantFrom("a", "b") }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(block, { maxLength: 6 }), async (blocks) => {
        const parts: IRStreamPart[] = [{ type: "start", id: "u", model: "m" }];
        const content: IRAssistantPart[] = [];
        blocks.forEach((b, index) => {
          const joined = b.chunks.join("");
          if (b.kind === "tool_call") {
            const id = `call_${index}`;
            parts.push({ type: "block-start", index, block: { type: "tool_call", id, name: b.name } });
            b.chunks.forEach((delta) => parts.push({ type: "tool-args-delta", index, delta }));
            content.push({ type: "tool_call", id, name: b.name, arguments: joined });
          } else if (b.kind === "reasoning") {
            const id = b.origin === "openai-responses" ? `rs_up_${index}` : undefined;
            parts.push({ type: "block-start", index, block: { type: "reasoning", origin: b.origin, summary: b.summary, ...(id ? { id } : {}) } });
            b.chunks.forEach((text) => parts.push({ type: "reasoning-delta", index, text }));
            if (b.encrypted) parts.push({ type: "reasoning-encrypted", index, data: b.encrypted });
            content.push({
              type: "reasoning",
              text: joined,
              origin: b.origin,
              summary: b.summary,
              ...(id ? { id } : {}),
              ...(b.encrypted ? { encrypted: b.encrypted } : {}),
            });
          } else {
            parts.push({ type: "block-start", index, block: { type: b.kind } });
            b.chunks.forEach((text) => parts.push({ type: b.kind === "text" ? "text-delta" : "refusal-delta", index, text }));
            content.push(b.kind === "text" ? { type: "text", text: joined } : { type: "refusal", refusal: joined });
          }
          parts.push({ type: "block-end", index });
        });
        parts.push({ type: "finish", finishReason: "stop", usage });
        const final = await clientServing(encodeAll(parts)).responses.stream({ model: "m", input: "hi" }).finalResponse();
        const expected = openaiResponsesInbound.encodeResult({ id: "u", model: "m", content, finishReason: "stop", usage }, ctx, settlement);
        const stripped = JSON.parse(
          JSON.stringify(final, (key, value) => (key === "parsed" || key === "parsed_arguments" || key === "output_parsed" ? undefined : value)),
        );
        expect(stripped).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
