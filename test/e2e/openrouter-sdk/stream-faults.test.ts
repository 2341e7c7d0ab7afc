import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ChatStreamChunk, StreamEvents } from "@openrouter/sdk/models";
import { BadGatewayResponseError, OpenRouterError, TooManyRequestsResponseError } from "@openrouter/sdk/models/errors";
import { drain, type SdkHarness, startSdkHarness, unknownParts } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

async function caught(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to fail");
}

describe("failures after the first byte parse as in-band errors", () => {
  test("chat.send stream: the terminal chunk carries error.code as an integer", async () => {
    h.up.enqueue({ text: ["partial ", "answer"], streamError: { afterEvents: 2, message: "upstream exploded" } });
    const stream = await h.client.chat.send({ chatRequest: { model: "acme/chat", messages: [{ role: "user", content: "hi" }], stream: true } });
    const chunks: ChatStreamChunk[] = await drain(stream);
    expect(unknownParts(chunks)).toEqual([]);
    const errors = chunks.filter((c) => c.error);
    expect(errors.length).toBe(1);
    expect(Number.isInteger(errors[0]!.error!.code)).toBe(true);
    expect(errors[0]!.error!.code).toBeGreaterThanOrEqual(400);
    expect(errors[0]!.error!.message).toContain("upstream exploded");
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("partial ");
  });

  test("responses.send stream: response.failed parses as a known event", async () => {
    h.up.enqueue({ text: ["one ", "two"], streamError: { afterEvents: 5, message: "went away" } });
    const stream = await h.client.responses.send({ responsesRequest: { model: "acme/resp", input: "hi", stream: true } });
    const events: StreamEvents[] = await drain(stream);
    expect(unknownParts(events)).toEqual([]);
    const last = events.at(-1)!;
    expect(last.type).toBe("response.failed");
    if (last.type !== "response.failed") return;
    expect(last.response.status).toBe("failed");
    expect(last.response.error?.message).toContain("went away");
  });

  test("chat.send stream through the translated path (Responses upstream) fails the same way", async () => {
    h.up.enqueue({ text: ["a", "b"], streamError: { afterEvents: 5, message: "translated failure" } });
    const stream = await h.client.chat.send({ chatRequest: { model: "acme/resp", messages: [{ role: "user", content: "hi" }], stream: true } });
    const chunks: ChatStreamChunk[] = await drain(stream);
    expect(unknownParts(chunks)).toEqual([]);
    const err = chunks.find((c) => c.error)?.error;
    expect(Number.isInteger(err?.code)).toBe(true);
    expect(err?.message).toContain("translated failure");
  });
});

describe("failures before the first byte parse as typed errors", () => {
  test("an upstream 500 is a 502 BadGatewayResponseError", async () => {
    h.up.enqueue({ status: 500 });
    const err = await caught(() => h.client.chat.send({ chatRequest: { model: "acme/chat", messages: [{ role: "user", content: "hi" }] } }));
    if (!(err instanceof BadGatewayResponseError)) throw new Error(`got ${String(err)} ${err instanceof OpenRouterError ? err.body : ""}`);
    expect(err.statusCode).toBe(502);
    expect(err.error.code).toBe(502);
  });

  test("an upstream 429 is a TooManyRequestsResponseError on responses.send", async () => {
    h.up.enqueue({ status: 429, headers: { "retry-after": "1" } });
    const err = await caught(() => h.client.responses.send({ responsesRequest: { model: "acme/resp", input: "hi", stream: true } }));
    if (!(err instanceof TooManyRequestsResponseError)) throw new Error(`got ${String(err)} ${err instanceof OpenRouterError ? err.body : ""}`);
    expect(err.statusCode).toBe(429);
    expect(err.error.code).toBe(429);
  });
});
