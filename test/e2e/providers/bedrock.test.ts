// Amazon Bedrock as an upstream, end to end: SigV4 with plain and session keys, a Bedrock API
// key, inference profile ARNs as model ids, errors classified (throttling and unavailability fall
// over, a validation error is the client's 400, a refused signature is the endpoint's bad
// credential: one warn line, no secret in it), exception frames before the first output, and
// BYOK keys (an API key or AWS keys as JSON, checked on create, masked when listed, used instead
// of the provider's). The mock recomputes every signature it receives.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Logger } from "../../../src/logger";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { MOCK_AWS } from "../../support/mock-upstream/bedrock-auth";

const { plain, session } = MOCK_AWS.keys;
const CLAUDE = "anthropic.claude-sonnet-4-20250514-v1:0";
const PROFILE_ARN = "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0";
const WRONG_SECRET = "wrong/Secret+Key/9999999999999999999999";
const PRICE = `{ prompt: "0.000001", completion: "0.000002" }`;

const yaml = (url: string) => `
catalog: { default: false }
routing: { circuit_failures: 1000 }
providers:
  - { slug: aws, api: bedrock, base_url: "${url}", aws: { region: us-east-1, access_key_id: ${plain.accessKeyId}, secret_access_key: "${plain.secretAccessKey}" } }
  - { slug: aws-bad, api: bedrock, base_url: "${url}", aws: { region: us-east-1, access_key_id: ${plain.accessKeyId}, secret_access_key: "${WRONG_SECRET}" } }
  - { slug: aws-sts, api: bedrock, base_url: "${url}", aws: { region: us-east-1, access_key_id: ${session.accessKeyId}, secret_access_key: "${session.secretAccessKey}", session_token: "${session.sessionToken}" } }
  - { slug: aws-key, api: bedrock, base_url: "${url}", api_key: "${MOCK_AWS.apiKey}" }
  - { slug: aws-byok, api: bedrock, base_url: "${url}", aws: { region: us-east-1 } }
  - { slug: backup, api: openai-chat, base_url: "${url}", api_key: k }
models:
  - id: b/claude
    endpoints: [{ provider: aws, model: "${CLAUDE}", pricing: ${PRICE} }, { provider: backup, model: up-backup, pricing: ${PRICE} }]
  - id: b/guarded
    endpoints: [{ provider: aws-bad, model: "${CLAUDE}", pricing: ${PRICE} }, { provider: aws, model: "${CLAUDE}", pricing: ${PRICE} }]
  - id: b/profile
    endpoints: [{ provider: aws-sts, model: "${PROFILE_ARN}", pricing: ${PRICE} }]
  - id: b/keyed
    endpoints: [{ provider: aws-key, model: "amazon.nova-pro-v1:0", pricing: ${PRICE} }]
  - id: b/byok
    endpoints: [{ provider: aws-byok, model: "${CLAUDE}", pricing: ${PRICE} }]
`;

type Line = { level: string; msg: string; fields?: Record<string, unknown> };
const lines: Line[] = [];
const logger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (msg, fields) => void lines.push({ level: "warn", msg, fields }),
  error: (msg, fields) => void lines.push({ level: "error", msg, fields }),
};

let up: MockUpstream;
let gw: TestGateway;
let key: string;
beforeAll(async () => {
  up = await startMockUpstream();
  gw = await startTestGateway({ yaml: yaml(up.url), logger, env: { LOG_LEVEL: "warn" } });
  key = (await createInferenceKey(gw, { name: "bedrock" })).key;
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});
beforeEach(() => {
  up.reset();
  lines.length = 0;
});

const chat = (model: string, extra: Record<string, unknown> = {}) =>
  gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model, messages: [{ role: "user", content: "hi" }], ...extra } });
const inOrder = (...order: string[]) => ({ provider: { order, allow_fallbacks: true } });
const streamedText = (text: string) =>
  text
    .split("\n\n")
    .filter((b) => b.startsWith("data: {"))
    .map((b) => JSON.parse(b.slice(6)).choices?.[0]?.delta?.content ?? "")
    .join("");

describe("errors are classified as for every upstream", () => {
  for (const status of [429, 503, 500]) {
    test(`${status} (${status === 429 ? "ThrottlingException" : status === 503 ? "ServiceUnavailableException" : "InternalServerException"}) falls over to the next provider`, async () => {
      up.enqueue({ status }, { text: "from backup" });
      const res = await chat("b/claude", inOrder("aws", "backup"));
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).choices[0].message.content).toBe("from backup");
      expect(up.requests.map((r) => r.path)).toEqual([`/v1/model/${encodeURIComponent(CLAUDE)}/converse`, "/v1/chat/completions"]);
    });
  }

  test("a throttling exception frame before the first output falls over too", async () => {
    up.enqueue(
      { text: ["never"], streamError: { afterEvents: 1, type: "throttlingException", message: "Too many requests, please wait before trying again." } },
      { text: ["fall", "back"] },
    );
    const res = await chat("b/claude", { ...inOrder("aws", "backup"), stream: true });
    expect(res.status).toBe(200);
    expect(streamedText(await res.text())).toBe("fallback");
    expect(up.requests.map((r) => r.path)).toEqual([`/v1/model/${encodeURIComponent(CLAUDE)}/converse-stream`, "/v1/chat/completions"]);
  });

  test("an exception frame after the first output ends the client's stream with an error event; nothing else is tried", async () => {
    up.enqueue({ text: ["Hel", "lo"], streamError: { afterEvents: 2, type: "modelStreamErrorException", message: "Model stream failed." } });
    const res = await chat("b/claude", { ...inOrder("aws", "backup"), stream: true });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(streamedText(text)).toBe("Hel");
    const last = JSON.parse(text.trim().split("\n\n").at(-1)!.slice(6));
    expect([last.choices[0].finish_reason, last.error.message]).toEqual(["error", "Model stream failed."]);
    expect(up.requests.length).toBe(1);
  });

  test("a validation exception frame before the first output is the client's error: 400, nothing else tried", async () => {
    up.enqueue({ text: ["never"], streamError: { afterEvents: 1, type: "validationException", message: "messages: roles must alternate" } });
    const res = await chat("b/claude", { ...inOrder("aws", "backup"), stream: true });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toBe("Provider aws rejected the request: messages: roles must alternate");
    expect(up.requests.length).toBe(1);
  });

  test("ValidationException (400) reaches the client as a 400 with Bedrock's message, and no other provider is tried", async () => {
    up.enqueue({ status: 400, errorBody: { message: "The model returned the following errors: temperature: range: 0..1" } });
    const res = await chat("b/claude", inOrder("aws", "backup"));
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toMatchObject({
      code: 400,
      message: "Provider aws rejected the request: The model returned the following errors: temperature: range: 0..1",
    });
    expect(up.requests.length).toBe(1);
  });

  test("a signature the mock refuses (403): the endpoint's credential is bad; the next serves; one warn line, no secret", async () => {
    up.enqueue({ text: "signed right" });
    const res = await chat("b/guarded", inOrder("aws-bad", "aws"));
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).choices[0].message.content).toBe("signed right");
    expect(up.requests.map((r) => r.headers.authorization?.slice(0, 48))).toEqual([
      `AWS4-HMAC-SHA256 Credential=${plain.accessKeyId}/`.slice(0, 48),
      `AWS4-HMAC-SHA256 Credential=${plain.accessKeyId}/`.slice(0, 48),
    ]);
    const warned = lines.filter((l) => l.level === "warn" && l.fields?.provider === "aws-bad");
    expect(warned.map((l) => [l.msg, l.fields?.status, l.fields?.retryable, l.fields?.error])).toEqual([
      [
        "upstream failed",
        403,
        true,
        "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.",
      ],
    ]);
    // the canonical request Bedrock appends (signed headers and their values) is cut off, and no key material is logged
    const logged = JSON.stringify(lines);
    for (const secret of [WRONG_SECRET, plain.secretAccessKey, "Canonical String"]) expect(logged).not.toContain(secret);
  });
});

describe("credentials and model ids", () => {
  test("session keys sign with their token; an inference profile ARN is the model id, escaped into the path", async () => {
    up.enqueue({ text: "via profile" }, { text: ["via ", "profile"] });
    const json = await chat("b/profile");
    expect(((await json.json()) as any).choices[0].message.content).toBe("via profile");
    const stream = await chat("b/profile", { stream: true });
    expect(streamedText(await stream.text())).toBe("via profile");
    expect(up.requests.map((r) => r.path)).toEqual([
      `/v1/model/${encodeURIComponent(PROFILE_ARN)}/converse`,
      `/v1/model/${encodeURIComponent(PROFILE_ARN)}/converse-stream`,
    ]);
    for (const r of up.requests) {
      expect(r.headers["x-amz-security-token"]).toBe(session.sessionToken);
      expect(r.headers.authorization).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=${session.accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date;x-amz-security-token, `,
        ),
      );
    }
  });

  test("a Bedrock API key goes as a bearer token, unsigned", async () => {
    up.enqueue({ text: "keyed" });
    const res = await chat("b/keyed");
    expect(((await res.json()) as any).choices[0].message.content).toBe("keyed");
    expect(up.requests[0]!.headers.authorization).toBe(`Bearer ${MOCK_AWS.apiKey}`);
    expect(up.requests[0]!.headers["x-amz-date"]).toBeUndefined();
    expect(up.requests[0]!.path).toBe("/v1/model/amazon.nova-pro-v1%3A0/converse");
  });
});

describe("BYOK", () => {
  const createByok = (body: Record<string, unknown>) => gw.api("/api/v1/byok", { method: "POST", json: { provider: "aws-byok", ...body } });
  const removeAll = async () => {
    const list = (await (await gw.api("/api/v1/byok?provider=aws-byok")).json()) as any;
    for (const c of list.data) await gw.api(`/api/v1/byok/${c.id}`, { method: "DELETE" });
  };
  beforeEach(removeAll);

  test("a key that is neither a Bedrock API key nor AWS keys as JSON is a 400 naming key", async () => {
    const cases: Array<[string, string]> = [
      ['{"access_key_id": "AKIA', "is not valid JSON"],
      [JSON.stringify({ access_key_id: plain.accessKeyId }), "needs 'secret_access_key' as a non-empty string"],
      [JSON.stringify({ ...{ access_key_id: "a", secret_access_key: "b" }, token: "x" }), "has an unknown field 'token'"],
      [JSON.stringify({ access_key_id: 5, secret_access_key: "b" }), "needs 'access_key_id' as a non-empty string"],
    ];
    for (const [keyText, why] of cases) {
      const res = await createByok({ key: keyText });
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      expect(body.error.metadata).toMatchObject({ field: "key" });
      expect(body.error.message).toContain(why);
    }
  });

  test("AWS keys as JSON: stored masked by their access key id, and they sign the workspace's calls", async () => {
    const res = await createByok({
      key: JSON.stringify({ access_key_id: session.accessKeyId, secret_access_key: session.secretAccessKey, session_token: session.sessionToken }),
    });
    expect(res.status).toBe(201);
    const listed = JSON.stringify(await (await gw.api("/api/v1/byok?provider=aws-byok")).json());
    expect(listed).toContain('"label":"AS...02"');
    expect(listed).not.toContain(session.secretAccessKey);
    up.enqueue({ text: "byok" });
    const answer = (await (await chat("b/byok")).json()) as any;
    expect([answer.choices[0].message.content, answer.usage.is_byok]).toEqual(["byok", true]);
    expect(up.requests[0]!.headers.authorization).toStartWith(`AWS4-HMAC-SHA256 Credential=${session.accessKeyId}/`);
  });

  test("a BYOK key's region wins over the provider's: signed for eu-west-1, the mock (us-east-1) refuses it", async () => {
    await createByok({ key: JSON.stringify({ access_key_id: plain.accessKeyId, secret_access_key: plain.secretAccessKey, region: "eu-west-1" }) });
    const res = await chat("b/byok");
    expect(res.status).toBe(502);
    expect(up.requests[0]!.headers.authorization).toContain("/eu-west-1/bedrock/aws4_request");
  });

  test("a Bedrock API key, and a BYOK key replacing the provider's own", async () => {
    await createByok({ key: MOCK_AWS.apiKey });
    up.enqueue({ text: "bearer" });
    await chat("b/byok");
    expect(up.requests[0]!.headers.authorization).toBe(`Bearer ${MOCK_AWS.apiKey}`);

    const own = await gw.api("/api/v1/byok", { method: "POST", json: { provider: "aws", key: MOCK_AWS.apiKey } });
    expect(own.status).toBe(201);
    up.enqueue({ text: "replaced" });
    await chat("b/claude", inOrder("aws"));
    expect(up.requests[1]!.headers.authorization).toBe(`Bearer ${MOCK_AWS.apiKey}`);
    await gw.api(`/api/v1/byok/${((await own.json()) as any).data.id}`, { method: "DELETE" });
  });
});
