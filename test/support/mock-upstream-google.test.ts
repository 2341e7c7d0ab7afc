// The mock's Google side, proven with Google's and Anthropic's own SDKs: @google/genai reads its
// Gemini API answers and, in Vertex AI mode, its publishers/google answers with an access token
// from its token endpoint; @anthropic-ai/vertex-sdk reads its publishers/anthropic answers. The
// token endpoint checks each grant's RS256 signature with the service account's public key.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import { FinishReason, GoogleGenAI } from "@google/genai";
import { OAuth2Client } from "google-auth-library";
import { importPKCS8, SignJWT } from "jose";
import { type MockTurn, type MockUpstream, startMockUpstream } from "./mock-upstream.ts";
import { makeServiceAccount, type TestServiceAccount } from "./service-account.ts";

let up: MockUpstream;
let account: TestServiceAccount;
let origin: string;

beforeAll(async () => {
  up = await startMockUpstream();
  origin = up.url.replace(/\/v1$/, "");
  account = await makeServiceAccount({ tokenUri: up.google.tokenUri });
  up.google.trust(account);
});
afterEach(() => up.reset());
afterAll(() => up.stop());

const turn: MockTurn = {
  id: "resp-g1",
  reasoning: { text: ["Weighing ", "it."], signature: "c2lnLXRleHQ=" },
  text: ["Let me ", "check."],
  toolCalls: [
    { id: "fc-1", name: "get_weather", arguments: '{"city":"Paris"}', signature: "c2lnLWZj" },
    { id: "fc-2", name: "get_time", arguments: '{"tz":"CET"}' },
  ],
  usage: { input: 100, output: 20, cached: 30, reasoning: 7 },
};

/** A grant signed with the account's key, as Google's client libraries make one. */
async function grant(a: TestServiceAccount, key = a.json, scope = "https://www.googleapis.com/auth/cloud-platform"): Promise<string> {
  const file = JSON.parse(key);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: file.private_key_id })
    .setIssuer(file.client_email)
    .setAudience(file.token_uri)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(await importPKCS8(file.private_key, "RS256"));
}

async function tokenFor(assertion: string): Promise<Response> {
  return fetch(up.google.tokenUri, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
  });
}

async function accessToken(): Promise<string> {
  return ((await (await tokenFor(await grant(account))).json()) as { access_token: string }).access_token;
}

/** An auth client holding a token from the mock's endpoint (Google's library would ask oauth2.googleapis.com). */
async function authClient(): Promise<OAuth2Client> {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: await accessToken(), expiry_date: Date.now() + 3_600_000 });
  return client;
}

describe("token endpoint", () => {
  test("a grant signed by a trusted account gets a token; every request is counted", async () => {
    const res = await tokenFor(await grant(account));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.stringMatching(/^ya29\.mock-\d+$/), expires_in: 3600, token_type: "Bearer" });
    expect(up.google.grants).toEqual([
      { iss: account.clientEmail, aud: up.google.tokenUri, scope: "https://www.googleapis.com/auth/cloud-platform", kid: account.keyId, lifetimeSeconds: 3600 },
    ]);
    expect(up.google.tokenRequests).toBe(1);
  });

  test("a grant signed with another key, an unknown account or another scope is refused", async () => {
    const stranger = await makeServiceAccount({ tokenUri: up.google.tokenUri });
    // the trusted account's name, the stranger's key
    const forged = JSON.stringify({ ...JSON.parse(stranger.json), client_email: account.clientEmail });
    const answers = await Promise.all([
      tokenFor(await grant(stranger, forged)),
      tokenFor(await grant(stranger)),
      tokenFor(await grant(account, account.json, "https://www.googleapis.com/auth/drive")),
    ]);
    expect(await Promise.all(answers.map(async (r) => [r.status, await r.json()]))).toEqual([
      [400, { error: "invalid_grant", error_description: "Invalid JWT Signature." }],
      [400, { error: "invalid_grant", error_description: "Invalid grant: account not found" }],
      [400, { error: "invalid_scope", error_description: "Invalid OAuth scope or ID token audience provided." }],
    ]);
    expect([up.google.tokenRequests, up.google.grants.length]).toEqual([3, 0]);
  });

  test("Vertex paths refuse a token the endpoint did not hand out, or revoked", async () => {
    const path = `${up.url}/projects/p/locations/global/publishers/google/models/gemini-3-flash-preview:generateContent`;
    const call = (token: string) => fetch(path, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: "{}" });
    const forged = await call("ya29.forged");
    expect([forged.status, await forged.json()]).toEqual([
      401,
      { error: { code: 401, message: expect.stringContaining("invalid authentication credentials"), status: "UNAUTHENTICATED" } },
    ]);
    const token = await accessToken();
    expect((await call(token)).status).toBe(200);
    up.google.revokeTokens();
    expect((await call(token)).status).toBe(401);
    expect(up.google.refused).toBe(2);
  });
});

describe("Gemini API (@google/genai)", () => {
  const ai = () => new GoogleGenAI({ apiKey: "AIza-test", httpOptions: { baseUrl: origin, apiVersion: "v1beta" } });

  test("JSON: thoughts, text, signed calls and usage", async () => {
    up.enqueue(turn);
    const r = await ai().models.generateContent({ model: "gemini-3-flash-preview", contents: "hi" });
    expect(r.responseId).toBe("resp-g1");
    expect(r.modelVersion).toBe("gemini-3-flash-preview");
    expect(r.text).toBe("Let me check.");
    expect(r.functionCalls).toEqual([
      { id: "fc-1", name: "get_weather", args: { city: "Paris" } },
      { id: "fc-2", name: "get_time", args: { tz: "CET" } },
    ]);
    expect(r.candidates![0]!.content!.parts!.map((p) => [p.thought ?? false, p.thoughtSignature ?? null])).toEqual([
      [true, null],
      [false, null],
      [false, "c2lnLWZj"],
      [false, "c2lnLXRleHQ="],
    ]);
    expect(r.candidates![0]!.finishReason).toBe(FinishReason.STOP);
    expect(r.usageMetadata).toEqual({
      promptTokenCount: 100,
      candidatesTokenCount: 13,
      thoughtsTokenCount: 7,
      cachedContentTokenCount: 30,
      totalTokenCount: 120,
    });
    const sent = up.requests[0]!;
    expect([sent.path, sent.headers["x-goog-api-key"]]).toEqual(["/v1beta/models/gemini-3-flash-preview:generateContent", "AIza-test"]);
  });

  test("SSE: the stream reassembles to the same answer", async () => {
    up.enqueue({ ...turn, toolCalls: undefined });
    const chunks = [];
    for await (const chunk of await ai().models.generateContentStream({ model: "gemini-2.5-flash", contents: "hi" })) chunks.push(chunk);
    expect(up.requests[0]!.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    expect(
      parts
        .filter((p) => p.thought)
        .map((p) => p.text)
        .join(""),
    ).toBe("Weighing it.");
    expect(
      parts
        .filter((p) => !p.thought)
        .map((p) => p.text)
        .join(""),
    ).toBe("Let me check.");
    expect(parts.at(-1)).toEqual({ text: "", thoughtSignature: "c2lnLXRleHQ=" });
    expect(chunks.at(-1)!.candidates![0]!.finishReason).toBe(FinishReason.STOP);
    expect(chunks.at(-1)!.usageMetadata!.thoughtsTokenCount).toBe(7);
  });

  test("errors in Google's shape reach the SDK with their status", async () => {
    up.enqueue({
      status: 400,
      errorBody: {
        error: {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
          details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }],
        },
      },
    });
    const err: unknown = await ai()
      .models.generateContent({ model: "gemini-2.5-flash", contents: "hi" })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, message: expect.stringContaining("API key not valid") });
  });
});

describe("Vertex AI", () => {
  test("@google/genai in Vertex mode: publishers/google with the endpoint's access token", async () => {
    up.enqueue(turn, { text: ["a", "b"], usage: { input: 3, output: 2 } });
    const ai = new GoogleGenAI({
      vertexai: true,
      project: "test-project-123",
      location: "us-east5",
      httpOptions: { baseUrl: origin, apiVersion: "v1" },
      googleAuthOptions: { authClient: await authClient() },
    });
    const r = await ai.models.generateContent({ model: "gemini-2.5-pro", contents: "hi" });
    expect([r.text, r.functionCalls?.length]).toEqual(["Let me check.", 2]);
    expect(up.requests[0]!.path).toBe("/v1/projects/test-project-123/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent");
    let text = "";
    for await (const chunk of await ai.models.generateContentStream({ model: "gemini-2.5-pro", contents: "hi" })) text += chunk.text ?? "";
    expect(text).toBe("ab");
    expect(up.requests[1]!.path).toBe("/v1/projects/test-project-123/locations/us-east5/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
  });

  test("@anthropic-ai/vertex-sdk: rawPredict and streamRawPredict answer in Anthropic's shape", async () => {
    up.enqueue(turn, turn);
    const client = new AnthropicVertex({ region: "us-east5", projectId: "test-project-123", baseURL: up.url, authClient: await authClient(), maxRetries: 0 });
    const message = await client.messages.create({ model: "claude-sonnet-4@20250514", max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    expect(message.content.map((b) => b.type)).toEqual(["thinking", "text", "tool_use", "tool_use"]);
    expect(message.model).toBe("claude-sonnet-4@20250514");
    const sent = up.requests[0]!;
    expect(sent.path).toBe("/v1/projects/test-project-123/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict");
    // the SDK moves the model into the path and its API version header into the body
    expect([sent.body.model, typeof sent.body.anthropic_version]).toEqual([undefined, "string"]);
    const final = await client.messages
      .stream({ model: "claude-sonnet-4@20250514", max_tokens: 100, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    expect(final.content.filter((b) => b.type === "text").map((b) => (b.type === "text" ? b.text : ""))).toEqual(["Let me check."]);
    expect(up.requests[1]!.path).toBe("/v1/projects/test-project-123/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict");
  });
});
