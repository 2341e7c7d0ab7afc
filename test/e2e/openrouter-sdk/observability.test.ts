// Observability destinations through @openrouter/sdk against a running gateway (allow_private_urls,
// so loopback receivers are allowed): the connection test reaching a loopback recorder, masking,
// partial updates, the per-type limit, and what each caller is refused. The SDK parses every
// answer with its zod schemas, so a shape the gateway gets wrong fails here.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { OpenRouter } from "@openrouter/sdk";
import { BadRequestResponseError, ConflictResponseError, ForbiddenResponseError, NotFoundResponseError } from "@openrouter/sdk/models/errors";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type HttpRecorder, startHttpRecorder } from "../../support/http-recorder";
import { allPages, type ErrorClass, expectTyped, sdk } from "./setup";

let gw: TestGateway;
let admin: OpenRouter;
let recorder: HttpRecorder;

beforeAll(async () => {
  gw = await startTestGateway({ yaml: "security: { allow_private_urls: true }\n" });
  admin = sdk(gw, gw.adminKey);
  recorder = startHttpRecorder();
});
afterAll(async () => {
  await gw.close();
  await recorder.stop();
});
beforeEach(() => recorder.reset());

/** The error body of a call that must fail with `cls` and `status`. */
const refused = async (call: () => Promise<unknown>, cls: ErrorClass, status: number) => (await expectTyped(call, cls, status)).error;

type Destination = Awaited<ReturnType<OpenRouter["observability"]["get"]>>["data"];
type KnownDestination = Exclude<Destination, { isUnknown: true }>;

/**
 * The destination as the SDK parsed it: a body that fails the schema of its `type` does not throw
 * there, it becomes `{ isUnknown: true, raw }`; this fails the test instead.
 */
function known(d: Destination): KnownDestination {
  if ("isUnknown" in d && d.isUnknown) throw new Error(`the SDK did not accept the destination: ${JSON.stringify((d as { raw?: unknown }).raw)}`);
  return d as KnownDestination;
}

const create = async (body: Parameters<OpenRouter["observability"]["create"]>[0]["createObservabilityDestinationRequest"]) => ({
  data: known((await admin.observability.create({ createObservabilityDestinationRequest: body })).data),
});
const list = async (request?: Parameters<OpenRouter["observability"]["list"]>[0]) => {
  const { result } = await admin.observability.list(request);
  return { ...result, data: result.data.map(known) };
};

const SECRET = "sk-lf-0123456789abcdef-secret";

describe("observability destinations via @openrouter/sdk", () => {
  test("create: 201, every field as sent or defaulted, after the webhook received the connection test", async () => {
    const raw = await gw.api("/api/v1/observability/destinations", {
      method: "POST",
      json: { type: "webhook", name: "raw", config: { url: `${recorder.url}/raw` } },
    });
    expect(raw.status).toBe(201);
    recorder.reset();
    const res = await create({
      type: "webhook",
      name: "Team hook",
      config: { url: `${recorder.url}/otlp`, method: "PUT", headers: { "X-Team": "payments" } },
      samplingRate: 0.5,
      privacyMode: true,
      apiKeyHashes: ["a".repeat(64)],
      regions: ["eu", "us"],
      filterRules: { groups: [{ rules: [{ field: "model", operator: "regex", value: "^acme/" }] }] },
      broadcastGenerationCost: true,
    });
    const d = res.data;
    if (d.type !== "webhook") throw new Error("expected a webhook destination");
    expect(d).toMatchObject({
      type: "webhook",
      name: "Team hook",
      enabled: true,
      privacyMode: true,
      samplingRate: 0.5,
      regions: ["europe", "us"],
      apiKeyHashes: ["a".repeat(64)],
      filterRules: { enabled: true, groups: [{ logic: "and", rules: [{ field: "model", operator: "regex", value: "^acme/" }] }] },
      broadcastGenerationCost: true,
      broadcastGenerationIdentity: false,
      broadcastGenerationRequestContext: false,
      config: { url: `${recorder.url}/otlp`, method: "PUT", headers: { "X-Team": "…" } },
    });
    expect(d.createdAt).toBe(d.updatedAt);
    // the test the destination passed before it was saved
    expect(recorder.requests).toHaveLength(1);
    const probe = recorder.requests[0]!;
    expect([probe.method, probe.path, probe.body]).toEqual(["PUT", "/otlp", '{"resourceSpans":[]}']);
    expect(probe.headers["x-test-connection"]).toBe("true");
    expect(probe.headers["x-team"]).toBe("payments");
    expect(probe.headers["content-type"]).toBe("application/json");
    expect(known((await admin.observability.get({ id: d.id })).data)).toEqual(d);
  });

  test("each OTLP type is created, tested against the receiver, and parsed by the SDK with its own config schema", async () => {
    const ws = ((await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "every type", slug: "every-type" } })).json()) as any).data;
    const configs = {
      "otel-collector": { endpoint: `${recorder.url}/v1/traces` },
      webhook: { url: `${recorder.url}/hook` },
      grafana: { apiKey: "glc_0123456789abcdef", instanceId: "123", baseUrl: recorder.url },
      sentry: { dsn: "https://abcdef0123456789@o1.ingest.sentry.io/42", otlpEndpoint: `${recorder.url}/api/42/integration/otlp/v1/traces` },
      langfuse: { publicKey: "pk-lf-1", secretKey: SECRET, baseUrl: recorder.url },
      langsmith: { apiKey: "lsv2_0123456789abcdef", endpoint: recorder.url },
      arize: { apiKey: "arize-0123456789abcdef", spaceKey: "space", modelId: "model", baseUrl: recorder.url },
      ramp: { apiKey: "ramp-0123456789abcdef", baseUrl: `${recorder.url}/ramp` },
    } as const;
    for (const [type, config] of Object.entries(configs)) {
      const { data } = await create({ type: type as keyof typeof configs, name: type, config, workspaceId: ws.id });
      expect([data.type, data.name]).toEqual([type, type]);
    }
    expect(recorder.requests.map((r) => r.path)).toEqual([
      "/v1/traces",
      "/hook",
      "/otlp/v1/traces",
      "/api/42/integration/otlp/v1/traces",
      "/api/public/otel/v1/traces",
      "/otel/v1/traces",
      "/v1/traces",
      "/ramp",
    ]);
    expect(recorder.requests.every((r) => r.headers["x-test-connection"] === "true")).toBe(true);
    // New Relic's URL is its own: saved without a test here
    const res = await gw.api("/api/v1/observability/destinations?skip_test=true", {
      method: "POST",
      json: { type: "newrelic", name: "nr", config: { licenseKey: "nr-0123456789abcdef" }, workspace_id: ws.id },
    });
    expect(res.status).toBe(201);
    const all = await list({ workspaceId: ws.id });
    expect(all.totalCount).toBe(9);
    const byType = Object.fromEntries(all.data.map((d) => [d.type, d.config]));
    expect(byType).toEqual({
      "otel-collector": configs["otel-collector"],
      webhook: { ...configs.webhook, method: "POST" },
      grafana: { ...configs.grafana, apiKey: "glc_…" },
      sentry: { ...configs.sentry, dsn: "http…" },
      langfuse: { ...configs.langfuse, secretKey: "sk-l…" },
      langsmith: { ...configs.langsmith, apiKey: "lsv2…", project: "main" },
      arize: { ...configs.arize, apiKey: "ariz…" },
      ramp: { ...configs.ramp, apiKey: "ramp…" },
      newrelic: { licenseKey: "nr-0…", region: "us" },
    });
  });

  test("each native type is created (tested against the receiver where its URL is configurable) and parsed by the SDK with its own config schema", async () => {
    const ws = ((await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "every native type", slug: "every-native-type" } })).json()) as any)
      .data;
    const tested = {
      braintrust: { apiKey: "bt-0123456789abcdef", projectId: "proj-1", baseUrl: recorder.url },
      datadog: { apiKey: "dd-0123456789abcdef", mlApp: "gateway", url: recorder.url },
      posthog: { apiKey: "phc_0123456789abcdef", endpoint: recorder.url },
      weave: { apiKey: "wandb-0123456789abcdef", entity: "team", project: "proj", baseUrl: recorder.url },
      clickhouse: { host: recorder.url, database: "db", username: "u", password: "ch-0123456789abcdef" },
    } as const;
    // ClickHouse's test asks `SELECT 1`, then whether the table exists
    recorder.script(
      { status: 200, json: { valid: true } },
      { status: 200, json: {} },
      { status: 200, json: {} },
      { status: 200, json: {} },
      { status: 200, text: "1\n" },
      { status: 200, text: "1\n" },
    );
    for (const [type, config] of Object.entries(tested)) {
      const { data } = await create({ type: type as keyof typeof tested, name: type, config, workspaceId: ws.id });
      expect([data.type, data.name]).toEqual([type, type]);
    }
    expect(recorder.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/project/proj-1",
      "GET /api/v1/validate",
      "POST /decide/",
      "POST /calls/stream_query",
      "POST /",
      "POST /",
    ]);
    // fixed hosts (Opik Cloud, Snowflake's account host) and S3 are saved without a test here
    const untested = {
      opik: { apiKey: "opik-0123456789abcdef", workspace: "team", projectName: "proj" },
      snowflake: { account: "eac52885.us-east-1", token: "pat-0123456789abcdef" },
      s3: { bucketName: "traces", accessKeyId: "AKIA0123456789", secretAccessKey: "s3-0123456789abcdef", endpoint: recorder.url },
    };
    for (const [type, config] of Object.entries(untested)) {
      const res = await gw.api("/api/v1/observability/destinations?skip_test=true", {
        method: "POST",
        json: { type, name: type, config, workspace_id: ws.id },
      });
      expect(res.status).toBe(201);
    }
    const all = await list({ workspaceId: ws.id });
    expect(all.totalCount).toBe(8);
    expect(Object.fromEntries(all.data.map((d) => [d.type, d.config]))).toEqual({
      braintrust: { ...tested.braintrust, apiKey: "bt-0…" },
      datadog: { ...tested.datadog, apiKey: "dd-0…" },
      posthog: { ...tested.posthog, apiKey: "phc_…" },
      weave: { ...tested.weave, apiKey: "wand…" },
      clickhouse: { ...tested.clickhouse, password: "ch-0…", table: "OPENROUTER_TRACES" },
      opik: { ...untested.opik, apiKey: "opik…" },
      snowflake: {
        ...untested.snowflake,
        token: "pat-…",
        database: "SNOWFLAKE_LEARNING_DB",
        schema: "PUBLIC",
        table: "OPENROUTER_TRACES",
        warehouse: "COMPUTE_WH",
      },
      s3: { ...untested.s3, secretAccessKey: "s3-0…", prefix: "openrouter-traces", pathTemplate: "{prefix}/{date}" },
    });
  });

  test("secrets are masked in every answer and kept sealed; the pipeline's reader sees them in clear", async () => {
    const { data } = await create({
      type: "langfuse",
      name: "lf",
      config: { publicKey: "pk-lf-1", secretKey: SECRET, baseUrl: recorder.url, headers: { "X-Tenant": "tenant-secret-abc" } },
    });
    expect(data.config).toEqual({ publicKey: "pk-lf-1", secretKey: "sk-l…", baseUrl: recorder.url, headers: { "X-Tenant": "tena…" } });
    expect(recorder.requests[0]!.path).toBe("/api/public/otel/v1/traces");
    expect(recorder.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`pk-lf-1:${SECRET}`).toString("base64")}`);
    expect(recorder.requests[0]!.headers["x-langfuse-ingestion-version"]).toBe("4");
    const listed = await gw.api("/api/v1/observability/destinations");
    const text = await listed.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("tenant-secret-abc");
    const opened = await gw.ctx.observability.destinations.byId(data.id);
    expect(opened!.config).toEqual({ publicKey: "pk-lf-1", secretKey: SECRET, baseUrl: recorder.url, headers: { "X-Tenant": "tenant-secret-abc" } });
    const enabled = await gw.ctx.observability.destinations.enabledForWorkspace(data.workspaceId);
    expect(enabled.map((d) => d.id)).toContain(data.id);
  });

  test("update: only the fields sent; masked values and unset keys keep the stored secret; a config change is tested again", async () => {
    const { data } = await create({ type: "langfuse", name: "lf2", config: { publicKey: "pk-lf-2", secretKey: SECRET, baseUrl: recorder.url } });
    recorder.reset();
    // no config: nothing tested
    const renamed = await admin.observability.update({ id: data.id, updateObservabilityDestinationRequest: { name: "renamed", enabled: false } });
    expect(known(renamed.data)).toMatchObject({ name: "renamed", enabled: false, config: data.config, privacyMode: false });
    expect(recorder.requests).toHaveLength(0);
    expect((await gw.ctx.observability.destinations.enabledForWorkspace(data.workspaceId)).map((d) => d.id)).not.toContain(data.id);
    // the config as returned (masked secret) with one key changed: the stored secret is kept and tested
    const moved = await admin.observability.update({
      id: data.id,
      updateObservabilityDestinationRequest: { config: { ...data.config, baseUrl: `${recorder.url}/eu` } },
    });
    expect(known(moved.data).config).toEqual({ publicKey: "pk-lf-2", secretKey: "sk-l…", baseUrl: `${recorder.url}/eu` });
    expect(recorder.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ["/eu/api/public/otel/v1/traces", `Basic ${Buffer.from(`pk-lf-2:${SECRET}`).toString("base64")}`],
    ]);
    // only one key sent: the others keep their values
    await admin.observability.update({ id: data.id, updateObservabilityDestinationRequest: { config: { publicKey: "pk-lf-3" } } });
    expect((await gw.ctx.observability.destinations.byId(data.id))!.config).toEqual({ publicKey: "pk-lf-3", secretKey: SECRET, baseUrl: `${recorder.url}/eu` });
    // the same config again: unchanged, not tested
    const before = recorder.requests.length;
    await admin.observability.update({ id: data.id, updateObservabilityDestinationRequest: { config: { secretKey: "sk-l…" } } });
    expect(recorder.requests.length).toBe(before);
  });

  test("a failing connection test is a 400 quoting the answer, and nothing is saved; skip_test saves without it", async () => {
    const countBefore = (await list()).totalCount;
    recorder.script({ status: 401, json: { message: "invalid credentials" } });
    const error = await refused(
      () => create({ type: "grafana", name: "g", config: { apiKey: "glc_bad", instanceId: "42", baseUrl: recorder.url } }),
      BadRequestResponseError,
      400,
    );
    expect(error.message).toBe(
      'Connection test failed: the destination answered 401: {"message":"invalid credentials"} (the credentials were refused). Correct the config, or save without the test with ?skip_test=true',
    );
    expect(error.metadata).toEqual({
      field: "config",
      reason: 'the destination answered 401: {"message":"invalid credentials"} (the credentials were refused)',
    });
    expect((await list()).totalCount).toBe(countBefore);
    recorder.reset();
    const skipped = await gw.api("/api/v1/observability/destinations?skip_test=true", {
      method: "POST",
      json: { type: "grafana", name: "g", config: { apiKey: "glc_bad", instanceId: "42", baseUrl: recorder.url } },
    });
    expect(skipped.status).toBe(201);
    expect(recorder.requests).toHaveLength(0);
    const id = ((await skipped.json()) as any).data.id;
    recorder.script({ status: 404, text: "no such path" });
    const patched = await gw.api(`/api/v1/observability/destinations/${id}`, { method: "PATCH", json: { config: { instanceId: "43" } } });
    expect(patched.status).toBe(400);
    expect(((await patched.json()) as any).error.message).toStartWith(
      `Connection test failed: the destination answered 404: no such path (nothing receives traces at ${recorder.url}/otlp/v1/traces)`,
    );
    expect((await gw.ctx.observability.destinations.byId(id))!.config.instanceId).toBe("42");
  });

  test("list: the default workspace's destinations, paged, with total_count; delete is soft and once", async () => {
    const pages = await allPages(await admin.observability.list({ limit: 2 }));
    const total = pages[0]!.totalCount;
    expect(pages.flatMap((p) => p.data.map(known)).length).toBe(total);
    expect(pages.every((p) => p.data.length <= 2)).toBe(true);
    const { data } = await create({ type: "otel-collector", name: "to delete", config: { endpoint: `${recorder.url}/v1/traces` } });
    expect((await admin.observability.delete({ id: data.id })).deleted).toBe(true);
    await refused(() => admin.observability.get({ id: data.id }), NotFoundResponseError, 404);
    await refused(() => admin.observability.delete({ id: data.id }), NotFoundResponseError, 404);
    expect((await list({ limit: 100 })).data.map((d) => d.id)).not.toContain(data.id);
    expect(await gw.ctx.observability.destinations.byId(data.id)).toBeNull();
  });

  test("at most 5 destinations of a type per workspace: the 6th is a 409; another type or workspace is fine", async () => {
    const ws = ((await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "limits", slug: "limits" } })).json()) as any).data;
    for (let i = 0; i < 5; i++) await create({ type: "ramp", name: `r${i}`, config: { apiKey: "ramp-key", baseUrl: recorder.url }, workspaceId: ws.id });
    const error = await refused(
      () => create({ type: "ramp", name: "r5", config: { apiKey: "ramp-key", baseUrl: recorder.url }, workspaceId: ws.id }),
      ConflictResponseError,
      409,
    );
    expect(error.message).toBe("The workspace already has 5 'ramp' destinations, the most it may have; delete one first");
    expect((await create({ type: "otel-collector", name: "other type", config: { endpoint: recorder.url }, workspaceId: ws.id })).data.type).toBe(
      "otel-collector",
    );
    expect((await list({ workspaceId: ws.id })).totalCount).toBe(6);
    const first = (await list({ workspaceId: ws.id, limit: 1 })).data[0]!;
    await admin.observability.delete({ id: first.id });
    expect((await create({ type: "ramp", name: "r5", config: { apiKey: "ramp-key", baseUrl: recorder.url }, workspaceId: ws.id })).data.workspaceId).toBe(
      ws.id,
    );
  });

  test("an inference key is refused with 403 on every operation", async () => {
    const { key } = await createInferenceKey(gw);
    const client = sdk(gw, key);
    const { data } = await create({ type: "otel-collector", name: "mine", config: { endpoint: recorder.url } });
    // the SDK declares 403 for create and update; list, get and delete answer it all the same
    await refused(
      () => client.observability.create({ createObservabilityDestinationRequest: { type: "webhook", name: "x", config: { url: recorder.url } } }),
      ForbiddenResponseError,
      403,
    );
    await refused(() => client.observability.update({ id: data.id, updateObservabilityDestinationRequest: { name: "x" } }), ForbiddenResponseError, 403);
    for (const [method, path] of [
      ["GET", ""],
      ["GET", `/${data.id}`],
      ["DELETE", `/${data.id}`],
    ] as const) {
      const res = await gw.api(`/api/v1/observability/destinations${path}`, { method, key });
      expect({ method, path, status: res.status, body: await res.json() }).toEqual({
        method,
        path,
        status: 403,
        body: { error: { code: 403, message: "This operation requires a management key" } },
      });
    }
    expect((await gw.ctx.observability.destinations.byId(data.id))!.name).toBe("mine");
  });

  test("404: an unknown id, another workspace's destination when a workspace is named, another organization's gateway", async () => {
    await refused(() => admin.observability.get({ id: crypto.randomUUID() }), NotFoundResponseError, 404);
    const other = ((await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "other", slug: "other" } })).json()) as any).data;
    const { data } = await create({ type: "otel-collector", name: "of other", config: { endpoint: recorder.url }, workspaceId: other.id });
    const defaultWs = ((await (await gw.api("/api/v1/workspaces")).json()) as any).data.find((w: any) => w.slug !== "other" && w.slug !== "limits");
    for (const [method, json] of [["GET"], ["PATCH", { name: "taken" }], ["DELETE"]] as const) {
      const res = await gw.api(`/api/v1/observability/destinations/${data.id}?workspace_id=${defaultWs.id}`, { method, json });
      expect({ method, status: res.status, body: await res.json() }).toEqual({
        method,
        status: 404,
        body: { error: { code: 404, message: `Observability destination not found: ${data.id}` } },
      });
    }
    expect((await gw.api(`/api/v1/observability/destinations/${data.id}?workspace_id=other`)).status).toBe(200);
    expect((await list()).data.map((d) => d.id)).not.toContain(data.id);
    const otherOrg = await startTestGateway({ yaml: "security: { allow_private_urls: true }\n" });
    try {
      const res = await otherOrg.api(`/api/v1/observability/destinations/${data.id}`);
      expect(res.status).toBe(404);
    } finally {
      await otherOrg.close();
    }
  });

  test("validation: every 400 names the field or config key at fault", async () => {
    const fieldOf = async (body: unknown, path = "/api/v1/observability/destinations", method = "POST") => {
      const res = await gw.api(path, { method, json: body });
      const json = (await res.json()) as any;
      return [res.status, json.error?.metadata?.field, json.error?.message];
    };
    expect(await fieldOf({ type: "arize", name: "a", config: { spaceKey: "s", modelId: "m" } })).toEqual([
      400,
      "config.apiKey",
      "Invalid 'config.apiKey': required for type 'arize'",
    ]);
    expect((await fieldOf({ type: "sentry", name: "s", config: { dsn: "not a dsn", otlpEndpoint: recorder.url } })).slice(0, 2)).toEqual([400, "config.dsn"]);
    expect((await fieldOf({ type: "newrelic", name: "n", config: { licenseKey: "k", region: "apac" } })).slice(0, 2)).toEqual([400, "config.region"]);
    expect((await fieldOf({ type: "webhook", name: "w", config: { url: recorder.url, secret: "x" } })).slice(0, 2)).toEqual([400, "config.secret"]);
    expect((await fieldOf({ type: "webhook", name: "w", config: { url: "ftp://files.example.com" } })).slice(0, 2)).toEqual([400, "config.url"]);
    expect((await fieldOf({ type: "webhook", name: "w", config: { url: recorder.url }, sampling_rate: 0 })).slice(0, 2)).toEqual([400, "sampling_rate"]);
    expect((await fieldOf({ type: "webhook", name: "w", config: { url: recorder.url }, api_key_hashes: [] })).slice(0, 2)).toEqual([400, "api_key_hashes"]);
    expect(
      (
        await fieldOf({
          type: "webhook",
          name: "w",
          config: { url: recorder.url },
          filter_rules: { groups: [{ rules: [{ field: "model", operator: "regex", value: "(" }] }] },
        })
      ).slice(0, 2),
    ).toEqual([400, "filter_rules.groups[0].rules[0].value"]);
    expect(
      (
        await fieldOf({
          type: "webhook",
          name: "w",
          config: { url: recorder.url },
          filter_rules: { groups: [{ rules: [{ field: "colour", operator: "equals", value: "x" }] }] },
        })
      ).slice(0, 2),
    ).toEqual([400, "filter_rules.groups[0].rules[0].field"]);
    expect((await fieldOf({ type: "carrier-pigeon", name: "w", config: {} })).slice(0, 2)).toEqual([400, "type"]);
    expect((await fieldOf({ type: "webhook", name: "w", config: { url: recorder.url }, workspace_id: "nope" })).slice(0, 2)).toEqual([400, "workspace_id"]);
    const { data } = await create({ type: "webhook", name: "patched", config: { url: recorder.url } });
    const path = `/api/v1/observability/destinations/${data.id}`;
    expect((await fieldOf({ type: "grafana" }, path, "PATCH")).slice(0, 2)).toEqual([400, "type"]);
    expect((await fieldOf({ workspace_id: data.workspaceId }, path, "PATCH")).slice(0, 2)).toEqual([400, "workspace_id"]);
    expect((await fieldOf({ config: { method: "DELETE" } }, path, "PATCH")).slice(0, 2)).toEqual([400, "config.method"]);
    expect((await fieldOf({ config: { url: null } }, path, "PATCH")).slice(0, 2)).toEqual([400, "config.url"]);
    expect((await fieldOf(undefined, "/api/v1/observability/destinations?workspace_id=nope", "GET")).slice(0, 2)).toEqual([400, "workspace_id"]);
  });
});
