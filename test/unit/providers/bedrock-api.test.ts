import { describe, expect, test } from "bun:test";
import { EventStreamCodec } from "@smithy/core/event-streams";
import { fromUtf8, toUtf8 } from "@smithy/core/serde";
import type { ProviderEntry } from "../../../src/catalog/types";
import { bedrockApi, modelPathSegment } from "../../../src/providers/apis/bedrock";
import { readEventStream } from "../../../src/providers/apis/bedrock-event-stream";

const provider = (baseUrl: string, region?: string): ProviderEntry => ({
  slug: "aws",
  name: "aws",
  api: "bedrock",
  baseUrl,
  headers: {},
  zdr: false,
  dataCollection: "allow",
  ...(region ? { region } : {}),
});
const TEMPLATE = "https://bedrock-runtime.{region}.amazonaws.com";
const KEYS = { access_key_id: "AKIDEXAMPLE", secret_access_key: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

describe("bedrock API", () => {
  test("URLs: the region fills the base URL (a BYOK key's own region first); model ids and ARNs are escaped as the AWS SDKs escape them", () => {
    const p = provider(TEMPLATE, "us-east-1");
    expect(bedrockApi.completionUrl(p, "anthropic.claude-v2:1", false, "ABSKkey")).toBe(
      "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-v2%3A1/converse",
    );
    expect(bedrockApi.completionUrl(p, "m", true, JSON.stringify({ ...KEYS, region: "eu-west-1" }))).toBe(
      "https://bedrock-runtime.eu-west-1.amazonaws.com/model/m/converse-stream",
    );
    expect(modelPathSegment("arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-7-sonnet-20250219-v1:0")).toBe(
      "arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-3-7-sonnet-20250219-v1%3A0",
    );
    expect(modelPathSegment("odd(model)*")).toBe("odd%28model%29%2A");
  });

  test("headers: a Bedrock API key is a bearer token; AWS keys sign the exact body, the operator's headers included", async () => {
    const call = { url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse", body: '{"messages":[]}', stream: false };
    expect(await bedrockApi.headers(provider(TEMPLATE, "us-east-1"), "ABSKkey", call, new AbortController().signal)).toEqual({
      "content-type": "application/json",
      accept: "application/json",
      authorization: "Bearer ABSKkey",
    });
    const signed = await bedrockApi.headers(
      { ...provider(TEMPLATE, "us-east-1"), headers: { "x-team": "ml" } },
      JSON.stringify(KEYS),
      call,
      new AbortController().signal,
    );
    expect(Object.keys(signed).sort()).toEqual(["accept", "authorization", "content-type", "x-amz-date", "x-team"]);
    expect(signed.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date;x-team, Signature=[0-9a-f]{64}$/,
    );
    const other = await bedrockApi.headers(
      provider(TEMPLATE, "us-east-1"),
      JSON.stringify(KEYS),
      { ...call, body: '{"messages":[1]}' },
      new AbortController().signal,
    );
    if (other["x-amz-date"] === signed["x-amz-date"]) expect(other.authorization).not.toBe(signed.authorization);
  });
});

describe("the ConverseStream reader", () => {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const frame = (type: string, payload: unknown) =>
    codec.encode({
      headers: {
        ":message-type": { type: "string", value: "event" },
        ":event-type": { type: "string", value: type },
        ":content-type": { type: "string", value: "application/json" },
      },
      body: fromUtf8(JSON.stringify(payload)),
    });
  const bytes = [
    frame("messageStart", { role: "assistant" }),
    frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hi" } }),
    frame("messageStop", { stopReason: "end_turn" }),
  ];
  const joined = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
  bytes.reduce((at, b) => (joined.set(b, at), at + b.length), 0);
  const body = (chunks: Uint8Array[]) => new ReadableStream<Uint8Array>({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) });
  const read = async (chunks: Uint8Array[]) => {
    const out = [];
    for await (const batch of readEventStream(body(chunks))) out.push(...batch);
    return out;
  };

  test("frames split anywhere across reads come out whole, one event per message, named by :event-type", async () => {
    const expected = [
      { event: "messageStart", data: '{"role":"assistant"}', json: { role: "assistant" } },
      { event: "contentBlockDelta", data: '{"contentBlockIndex":0,"delta":{"text":"Hi"}}', json: { contentBlockIndex: 0, delta: { text: "Hi" } } },
      { event: "messageStop", data: '{"stopReason":"end_turn"}', json: { stopReason: "end_turn" } },
    ];
    for (const size of [1, 3, 7, 50, joined.length]) {
      const chunks = Array.from({ length: Math.ceil(joined.length / size) }, (_, i) => joined.slice(i * size, i * size + size));
      expect(await read(chunks)).toEqual(expected);
    }
  });

  test("the messages of one read are yielded together, one batch per read that completes any", async () => {
    const batches = async (chunks: Uint8Array[]) => {
      const sizes = [];
      for await (const batch of readEventStream(body(chunks))) sizes.push(batch.length);
      return sizes;
    };
    const [first, second, third] = bytes as [Uint8Array, Uint8Array, Uint8Array];
    const joinedOf = (...parts: Uint8Array[]) => {
      const out = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
      parts.reduce((at, b) => (out.set(b, at), at + b.length), 0);
      return out;
    };
    expect(await batches([joined])).toEqual([3]);
    expect(await batches([first, joinedOf(second, third)])).toEqual([1, 2]);
    // a message cut across reads belongs to the read that completes it; a read that completes none yields nothing
    const cut = joinedOf(second, third);
    expect(await batches([joinedOf(first, cut.subarray(0, 5)), cut.subarray(5, 9), cut.subarray(9)])).toEqual([1, 2]);
  });

  test("a corrupted or truncated frame throws, as a broken connection does", async () => {
    const corrupt = joined.slice();
    corrupt[40] = corrupt[40]! ^ 0xff;
    await expect(read([corrupt])).rejects.toThrow();
    await expect(read([joined.slice(0, joined.length - 3)])).rejects.toThrow("Truncated event message received.");
  });
});
