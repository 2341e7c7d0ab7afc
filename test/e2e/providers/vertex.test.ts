// The Vertex AI upstream end to end: the service account's RS256 grant checked by the mock's token
// endpoint, the token kept until shortly before it expires, one fetch shared by concurrent calls,
// one more call after a 401 (never two), a refused grant counted as the endpoint's bad credential,
// the project and location in the URL, and BYOK service accounts (validated, masked, their own project).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createLogger } from "../../../src/logger";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { makeServiceAccount, type TestServiceAccount } from "../../support/service-account";

let up: MockUpstream;
let gw: TestGateway;
let key: string;
const accounts: Record<string, TestServiceAccount> = {};
const logLines: string[] = [];
/** one provider per test that counts token fetches, so each starts with nothing kept */
const PROVIDERS = ["vcache", "vrush", "vexpiry", "vrefresh", "vtwice"] as const;
const PRICING = `{ prompt: "0.000001", completion: "0.000002", input_cache_read: "0.0000001" }`;

beforeAll(async () => {
  up = await startMockUpstream();
  const dir = tempDir("gw-vertex-e2e-");
  const files: Record<string, string> = {};
  for (const slug of [...PROVIDERS, "vx", "stranger"]) {
    accounts[slug] = await makeServiceAccount({ tokenUri: up.google.tokenUri, name: slug, projectId: `${slug}-home` });
    files[slug] = join(dir, `${slug}.json`);
    await Bun.write(files[slug]!, accounts[slug]!.json);
    // the stranger's key is one the token endpoint does not know
    if (slug !== "stranger") up.google.trust(accounts[slug]!);
  }
  const provider = (slug: string, block: string) =>
    `  - { slug: ${slug}, api: vertex, base_url: "${up.url}", vertex: { ${block}credentials_file: "${files[slug === "vy" ? "stranger" : slug]}" } }`;
  const model = (id: string, slug: string, upstream: string) =>
    `  - { id: ${id}, endpoints: [{ provider: ${slug}, model: "${upstream}", pricing: ${PRICING} }] }`;
  gw = await startTestGateway({
    logger: createLogger("warn", (line) => logLines.push(line)),
    yaml: [
      "catalog: { default: false }",
      "routing: { circuit_failures: 1000 }",
      // the mock's token endpoint is on loopback: BYOK accounts may name it here
      "security: { allow_private_urls: true }",
      "providers:",
      provider("vx", "project: own-project, location: europe-west4, "),
      provider("vy", "location: global, "),
      ...PROVIDERS.map((slug) => provider(slug, "location: us-east5, ")),
      `  - { slug: oc, api: openai-chat, base_url: "${up.url}", api_key: k1 }`,
      "models:",
      model("t/vgem", "vx", "gemini-2.5-flash"),
      model("t/vclaude", "vx", "claude-opus-4-1@20250805"),
      model("t/vy", "vy", "gemini-2.5-flash"),
      ...PROVIDERS.map((slug) => model(`t/${slug}`, slug, "gemini-2.5-flash")),
      model("t/chat", "oc", "up-chat"),
      "",
    ].join("\n"),
  });
  ({ key } = await createInferenceKey(gw, { name: "vertex e2e" }));
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});
beforeEach(() => {
  up.reset();
  logLines.length = 0;
});

const chat = (model: string, extra: Record<string, unknown> = {}, apiKey = key) =>
  gw.api("/api/v1/chat/completions", { method: "POST", key: apiKey, json: { model, messages: [{ role: "user", content: "hi" }], ...extra } });
const vertexCalls = () => up.requests.filter((r) => r.path.startsWith("/v1/projects/"));

describe("service-account access tokens", () => {
  test("a verified grant, its token kept across calls; the URL names the provider's project and location", async () => {
    up.enqueue({ text: "one" }, { text: "two" }, { text: ["th", "ree"] });
    for (const stream of [false, false, true]) expect((await chat("t/vcache", { stream })).status).toBe(200);
    expect(up.google.tokenRequests).toBe(1);
    const a = accounts.vcache!;
    expect(up.google.grants).toEqual([
      { iss: a.clientEmail, aud: up.google.tokenUri, scope: "https://www.googleapis.com/auth/cloud-platform", kid: a.keyId, lifetimeSeconds: 3600 },
    ]);
    const [first, , third] = vertexCalls();
    // no project on the provider: the account's own
    expect(first!.path).toBe("/v1/projects/vcache-home/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent");
    expect(third!.path).toBe("/v1/projects/vcache-home/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(new Set(vertexCalls().map((r) => r.headers.authorization)).size).toBe(1);
  });

  test("the provider's project wins; Claude goes through publishers/anthropic with rawPredict", async () => {
    up.enqueue({ text: "g" }, { text: "c" });
    await chat("t/vgem");
    await chat("t/vclaude");
    expect(vertexCalls().map((r) => r.path)).toEqual([
      "/v1/projects/own-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent",
      "/v1/projects/own-project/locations/europe-west4/publishers/anthropic/models/claude-opus-4-1@20250805:rawPredict",
    ]);
    expect(vertexCalls()[1]!.body).toMatchObject({ anthropic_version: "vertex-2023-10-16", max_tokens: 4096 });
  });

  test("concurrent calls wait for one token fetch", async () => {
    up.google.tokenDelayMs = 200;
    const answers = await Promise.all(Array.from({ length: 6 }, () => chat("t/vrush")));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(up.google.tokenRequests).toBe(1);
  });

  test("a token within five minutes of its expiry is fetched anew", async () => {
    up.google.expiresIn = 300;
    await chat("t/vexpiry");
    await chat("t/vexpiry");
    expect(up.google.tokenRequests).toBe(2);
    up.google.expiresIn = 3600;
    await chat("t/vexpiry");
    await chat("t/vexpiry");
    expect(up.google.tokenRequests).toBe(3);
  });

  test("a revoked token: the 401 is followed by one fresh token and one more call", async () => {
    await chat("t/vrefresh");
    up.google.revokeTokens();
    up.reset();
    const res = await chat("t/vrefresh");
    expect(res.status).toBe(200);
    expect([up.google.tokenRequests, up.google.refused, vertexCalls().length]).toEqual([1, 1, 2]);
    expect(logLines).toEqual([]);
  });

  test("... and a second 401 is the answer: no third call, the next model serves", async () => {
    up.setHandler((req) => (req.path.startsWith("/v1/projects/") ? { status: 401 } : { text: "fallback" }));
    const res = await chat("t/vtwice", { models: ["t/chat"] });
    expect(res.status).toBe(200);
    expect([up.google.tokenRequests, vertexCalls().length]).toEqual([2, 2]);
    expect(logLines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ msg: "upstream failed", provider: "vtwice", status: 401 })]);
  });

  test("a grant the token endpoint refuses is the endpoint's bad credential: failover, one warn line, no secret", async () => {
    up.enqueue({ text: "fallback" });
    const res = await chat("t/vy", { models: ["t/chat"] });
    expect(res.status).toBe(200);
    const message = `the token endpoint refused the service account ${accounts.stranger!.clientEmail} (400 invalid_grant: Invalid grant: account not found)`;
    expect(logLines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ msg: "upstream failed", provider: "vy", status: 401, retryable: true, error: message }),
    ]);
    expect(logLines.join("\n")).not.toContain("PRIVATE KEY");
    expect(vertexCalls()).toEqual([]);
    up.reset();
    const alone = await chat("t/vy");
    expect(alone.status).toBe(502);
    expect(((await alone.json()) as any).error.message).toBe(`Provider vy failed: ${message}`);
  });
});

test("the model listing tells Gemini's implicit caching from Claude's cache_control on one Vertex provider", async () => {
  const implicit = async (id: string) =>
    ((await (await gw.api(`/api/v1/models/${id}/endpoints`, { key })).json()) as any).data.endpoints.map((e: any) => e.supports_implicit_caching);
  expect([await implicit("t/vgem"), await implicit("t/vclaude")]).toEqual([[true], [false]]);
});

describe("BYOK service accounts", () => {
  test("a workspace's account calls its own project with its own token; listed masked", async () => {
    const own = await makeServiceAccount({ tokenUri: up.google.tokenUri, name: "byok-account", projectId: "byok-project" });
    up.google.trust(own);
    const ws = ((await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "V", slug: "v-byok" } })).json()) as any).data.id;
    const created = await gw.api("/api/v1/byok", { method: "POST", json: { provider: "vx", key: own.json, workspace_id: ws } });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as any;
    expect(data.label).toBe("byok....com");
    const listed = await (await gw.api("/api/v1/byok?provider=vx")).text();
    expect(listed).not.toContain("PRIVATE KEY");
    const { key: wsKey } = await createInferenceKey(gw, { workspace_id: ws });
    up.enqueue({ text: "byok" });
    expect((await chat("t/vgem", {}, wsKey)).status).toBe(200);
    expect(vertexCalls()[0]!.path).toBe("/v1/projects/byok-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent");
    expect(up.google.grants.map((g) => g.iss)).toEqual([own.clientEmail]);
  });

  test("a key that is not a service-account key file is a 400 naming `key`, saying why and not what", async () => {
    const post = async (keyText: string) => {
      const res = await gw.api("/api/v1/byok", { method: "POST", json: { provider: "vx", key: keyText } });
      return [res.status, ((await res.json()) as any).error] as const;
    };
    expect(await post('{"type": "service_account", "private_key": "-----BEGIN PRIVATE')).toEqual([
      400,
      {
        code: 400,
        message: "Invalid field 'key': the vx key is not a service-account key file: it is not JSON (a service-account key file is)",
        metadata: { field: "key" },
      },
    ]);
    const [status, error] = await post(JSON.stringify({ type: "authorized_user", client_id: "x", refresh_token: "1//secret-refresh" }));
    expect([status, error.message]).toEqual([400, `Invalid field 'key': the vx key is not a service-account key file: it has no "type": "service_account"`]);
    expect(JSON.stringify(error)).not.toContain("secret-refresh");
  });
});

describe("BYOK token_uri under the URL policy", () => {
  test("without allow_private_urls, an account whose token_uri is on a private address is refused", async () => {
    // Google's token endpoint answered without the system resolver: a public address
    const lookup = async () => [{ address: "142.250.180.10", family: 4 as const }];
    const strict = await startTestGateway({
      lookup,
      yaml: `catalog: { default: false }\nproviders:\n  - { slug: vx, api: vertex, vertex: { location: us-east5 } }\n`,
    });
    try {
      const account = await makeServiceAccount({ tokenUri: "https://169.254.169.254/token" });
      const res = await strict.api("/api/v1/byok", { method: "POST", json: { provider: "vx", key: account.json } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error).toEqual({
        code: 400,
        message: "Invalid field 'key': the URL it names (https://169.254.169.254/token) address 169.254.169.254 is in a non-public range (linkLocal)",
        metadata: { field: "key", reason: "address 169.254.169.254 is in a non-public range (linkLocal)" },
      });
      // a real account's token_uri passes
      const google = await makeServiceAccount({ tokenUri: "https://oauth2.googleapis.com/token" });
      const ok = await strict.api("/api/v1/byok", { method: "POST", json: { provider: "vx", key: google.json } });
      expect(ok.status).toBe(201);
    } finally {
      await strict.close();
    }
  });
});
