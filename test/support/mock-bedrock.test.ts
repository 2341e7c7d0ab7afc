// The mock's Bedrock side, proven with AWS's own client first: @aws-sdk/client-bedrock-runtime
// signs its calls with SigV4 (or sends a Bedrock API key), reads Converse JSON and the binary
// ConverseStream, and maps exception frames and error statuses to its exception classes. A
// mock this client cannot read, or one that accepts what AWS would refuse, proves nothing.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, type ConverseStreamOutput } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { MOCK_AWS } from "./mock-upstream/bedrock-auth.ts";
import { type MockTurn, type MockUpstream, startMockUpstream } from "./mock-upstream.ts";

let up: MockUpstream;
const MODEL = "anthropic.claude-sonnet-4-20250514-v1:0";
const PROFILE_ARN = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4";

// the SDK speaks HTTP/2 to Bedrock by default; the mock, like most local servers, HTTP/1.1
const transport = { endpoint: "", maxAttempts: 1, requestHandler: new NodeHttpHandler() };
const client = (credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }, region: string = MOCK_AWS.region) =>
  new BedrockRuntimeClient({ ...transport, region, endpoint: up.url, credentials });

beforeAll(async () => {
  up = await startMockUpstream();
});
afterEach(() => up.reset());
afterAll(() => up.stop());

const TURN: MockTurn = {
  reasoning: { text: ["Let me ", "think."], signature: "sig-abc" },
  text: ["Checking ", "now."],
  toolCalls: [{ id: "tooluse_1", name: "get_weather", arguments: ['{"ci', 'ty":"Paris"}'] }],
  usage: { input: 100, output: 20, cached: 30, cacheWrite: 10 },
};

const question = { modelId: MODEL, messages: [{ role: "user" as const, content: [{ text: "Weather in Paris?" }] }] };

async function collect(stream: AsyncIterable<ConverseStreamOutput> | undefined): Promise<ConverseStreamOutput[]> {
  const out: ConverseStreamOutput[] = [];
  for await (const event of stream ?? []) out.push(event);
  return out;
}

describe("Converse through the AWS SDK", () => {
  test("a SigV4-signed Converse call: reasoning with its signature, text, tool use, stop reason, usage with cache", async () => {
    up.enqueue(TURN);
    const out = await client(MOCK_AWS.keys.plain).send(new ConverseCommand(question));
    expect(out.output?.message?.content).toEqual([
      { reasoningContent: { reasoningText: { text: "Let me think.", signature: "sig-abc" } } },
      { text: "Checking now." },
      { toolUse: { toolUseId: "tooluse_1", name: "get_weather", input: { city: "Paris" } } },
    ]);
    expect(out.stopReason).toBe("tool_use");
    expect(out.usage).toEqual({ inputTokens: 60, outputTokens: 20, totalTokens: 120, cacheReadInputTokens: 30, cacheWriteInputTokens: 10 });
    const sent = up.requests[0]!;
    expect(sent.path).toBe(`/v1/model/${encodeURIComponent(MODEL)}/converse`);
    expect(sent.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAMOCKBEDROCK00001\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(sent.body).toEqual({ messages: question.messages });
  });

  test("an inference profile ARN is a model id: the SDK escapes it into the path, the mock reads it back", async () => {
    up.enqueue({ text: "ok" });
    const out = await client(MOCK_AWS.keys.session).send(new ConverseCommand({ ...question, modelId: PROFILE_ARN }));
    expect(out.output?.message?.content).toEqual([{ text: "ok" }]);
    expect(up.requests[0]!.path).toBe(`/v1/model/${encodeURIComponent(PROFILE_ARN)}/converse`);
    expect(up.requests[0]!.headers["x-amz-security-token"]).toBe(MOCK_AWS.keys.session.sessionToken);
  });

  test("ConverseStream: the binary event stream decodes into the SDK's events, in order", async () => {
    up.enqueue(TURN);
    const out = await client(MOCK_AWS.keys.plain).send(new ConverseStreamCommand(question));
    const events = await collect(out.stream);
    expect(up.requests[0]!.path).toBe(`/v1/model/${encodeURIComponent(MODEL)}/converse-stream`);
    const kinds = events.map((e) => Object.keys(e).find((k) => (e as unknown as Record<string, unknown>)[k] !== undefined));
    expect(kinds).toEqual([
      "messageStart",
      "contentBlockDelta",
      "contentBlockDelta",
      "contentBlockDelta",
      "contentBlockStop",
      "contentBlockDelta",
      "contentBlockDelta",
      "contentBlockStop",
      "contentBlockStart",
      "contentBlockDelta",
      "contentBlockDelta",
      "contentBlockStop",
      "messageStop",
      "metadata",
    ]);
    const deltas = events.flatMap((e) => (e.contentBlockDelta ? [e.contentBlockDelta] : []));
    expect(deltas.map((d) => [d.contentBlockIndex, d.delta])).toEqual([
      [0, { reasoningContent: { text: "Let me " } }],
      [0, { reasoningContent: { text: "think." } }],
      [0, { reasoningContent: { signature: "sig-abc" } }],
      [1, { text: "Checking " }],
      [1, { text: "now." }],
      [2, { toolUse: { input: '{"ci' } }],
      [2, { toolUse: { input: 'ty":"Paris"}' } }],
    ]);
    expect(events.find((e) => e.contentBlockStart)?.contentBlockStart).toEqual({
      contentBlockIndex: 2,
      start: { toolUse: { toolUseId: "tooluse_1", name: "get_weather" } },
    });
    expect(events.find((e) => e.messageStop)?.messageStop).toEqual({ stopReason: "tool_use" });
    expect(events.at(-1)?.metadata?.usage).toEqual({
      inputTokens: 60,
      outputTokens: 20,
      totalTokens: 120,
      cacheReadInputTokens: 30,
      cacheWriteInputTokens: 10,
    });
  });

  test("an exception frame ends the stream: the SDK throws the exception it names", async () => {
    up.enqueue({ text: ["a", "b", "c"], streamError: { afterEvents: 2, message: "Too many tokens, please wait.", type: "throttlingException" } });
    const out = await client(MOCK_AWS.keys.plain).send(new ConverseStreamCommand(question));
    const seen: ConverseStreamOutput[] = [];
    const error = await (async () => {
      try {
        for await (const event of out.stream ?? []) seen.push(event);
      } catch (err) {
        return err as Error;
      }
    })();
    expect(seen.length).toBe(2);
    expect(error?.name).toBe("ThrottlingException");
    expect(error?.message).toBe("Too many tokens, please wait.");
  });

  test("error statuses carry Bedrock's type and message", async () => {
    up.enqueue({ status: 429 }, { status: 400, errorBody: { message: "messages.0: content must not be empty" } });
    const c = client(MOCK_AWS.keys.plain);
    const throttled = (await c.send(new ConverseCommand(question)).catch((e: unknown) => e)) as Error & { $metadata?: { httpStatusCode?: number } };
    expect([throttled.name, throttled.$metadata?.httpStatusCode, throttled.message]).toEqual(["ThrottlingException", 429, "mock ThrottlingException"]);
    const invalid = (await c.send(new ConverseCommand(question)).catch((e: unknown) => e)) as Error;
    expect([invalid.name, invalid.message]).toEqual(["ValidationException", "messages.0: content must not be empty"]);
  });
});

describe("the mock checks every credential as AWS does", () => {
  const refused = async (c: BedrockRuntimeClient) => {
    const err = (await c.send(new ConverseCommand(question)).catch((e: unknown) => e)) as Error & { $metadata?: { httpStatusCode?: number } };
    return [err.name, err.$metadata?.httpStatusCode, err.message.split("\n")[0]];
  };

  test("a wrong secret, an unknown key, a missing session token or another region: 403, and no turn taken", async () => {
    up.enqueue({ text: "served" });
    const { plain, session } = MOCK_AWS.keys;
    expect(await refused(client({ ...plain, secretAccessKey: "not-the-secret" }))).toEqual([
      "InvalidSignatureException",
      403,
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.",
    ]);
    expect(await refused(client({ ...plain, accessKeyId: "AKIAUNKNOWN000000000" }))).toEqual([
      "UnrecognizedClientException",
      403,
      "The security token included in the request is invalid.",
    ]);
    expect(await refused(client({ accessKeyId: session.accessKeyId, secretAccessKey: session.secretAccessKey }))).toEqual([
      "UnrecognizedClientException",
      403,
      "The security token included in the request is invalid.",
    ]);
    expect(await refused(client(plain, "eu-west-1"))).toEqual(["InvalidSignatureException", 403, "Credential should be scoped to a valid region."]);
    // the queued turn is still there for a call that passes
    const out = await client(plain).send(new ConverseCommand(question));
    expect(out.output?.message?.content).toEqual([{ text: "served" }]);
  });

  test("a body changed after signing is refused: the signature covers the bytes", async () => {
    const c = client(MOCK_AWS.keys.plain);
    const tampered = (body: Uint8Array | string) => (typeof body === "string" ? body : new TextDecoder().decode(body)).replace("Paris", "Rome!");
    // the SDK's middleware types are generic over every command; this one only rewrites the body
    c.middlewareStack.addRelativeTo((next: any) => (args: any) => next({ ...args, request: { ...args.request, body: tampered(args.request.body) } }), {
      relation: "after",
      toMiddleware: "awsAuthMiddleware",
      name: "tamper",
    });
    expect((await refused(c))[0]).toBe("InvalidSignatureException");
  });

  test("a Bedrock API key as a bearer token: the known one passes, another is refused", async () => {
    up.enqueue({ text: "by key" });
    const bearer = (token: string) =>
      new BedrockRuntimeClient({ ...transport, region: MOCK_AWS.region, endpoint: up.url, token: { token }, authSchemePreference: ["httpBearerAuth"] });
    const out = await bearer(MOCK_AWS.apiKey).send(new ConverseCommand(question));
    expect(out.output?.message?.content).toEqual([{ text: "by key" }]);
    expect(up.requests[0]!.headers.authorization).toBe(`Bearer ${MOCK_AWS.apiKey}`);
    expect(await refused(bearer("ABSK-not-a-known-key"))).toEqual([
      "UnrecognizedClientException",
      403,
      "The security token included in the request is invalid.",
    ]);
  });
});
