import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { operationsOf, resolveRef } from "../support/api-document";
import { startTestGateway, type TestGateway } from "../support/gateway";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

test("the OpenAPI document describes every route with request and response schemas", async () => {
  const res = await fetch(`${gw.url}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as any;
  expect(doc.openapi).toMatch(/^3\./);
  const missing: string[] = [];
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const ok = Object.entries<any>(op.responses ?? {}).find(([code]) => code.startsWith("2"));
      if (!ok || !Object.values<any>(ok[1].content ?? {}).some((c) => c.schema)) missing.push(`${method.toUpperCase()} ${path}: no 2xx response schema`);
      if (["post", "put", "patch"].includes(method) && !op.requestBody) missing.push(`${method.toUpperCase()} ${path}: no request body schema`);
    }
  }
  expect(missing).toEqual([]);
  expect(Object.keys(doc.paths)).toContain("/api/v1/chat/completions");
  const countTokens = doc.paths["/api/v1/messages/count_tokens"]?.post;
  expect(countTokens.requestBody.required).toBe(true);
  expect(Object.keys(countTokens.responses["200"].content["application/json"].schema.properties)).toEqual(["input_tokens"]);
  expect(Object.keys(countTokens.responses["404"].content["application/json"].schema.properties)).toEqual(["type", "error", "request_id"]);
});

test("the OpenRouter operations of credits, activity, budgets and feedback are documented", async () => {
  const doc = (await (await fetch(`${gw.url}/api/v1/openapi.json`)).json()) as any;
  const summary = (path: string, method: string) => doc.paths[path]?.[method]?.summary;
  expect(summary("/api/v1/credits", "get")).toBe("Credits and usage of the calling key (inference key) or of the organization (management key)");
  expect(summary("/api/v1/activity", "get")).toBe("Spend, requests and tokens per day, model and endpoint over the last 30 UTC days");
  expect(summary("/api/v1/generation/feedback", "post")).toBe("Submit feedback on a generation");
  expect(summary("/api/v1/workspaces/{id}/budgets", "get")).toBe("List a workspace's budgets (daily, weekly, monthly, lifetime)");
  for (const method of ["get", "put", "delete"]) expect(summary("/api/v1/workspaces/{id}/budgets/{interval}", method)).toBeString();
  expect(doc.paths["/api/v1/workspaces/{id}/budgets/{interval}"].put.description).toContain("openrouter_workspace_budget");
});

test("the 13 guardrail operations are documented with their schemas", async () => {
  const doc = (await (await fetch(`${gw.url}/api/v1/openapi.json`)).json()) as any;
  const methods = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
  expect(methods("/api/v1/guardrails")).toEqual(["get", "post"]);
  expect(methods("/api/v1/guardrails/{id}")).toEqual(["delete", "get", "patch"]);
  expect(methods("/api/v1/guardrails/{id}/assignments/keys")).toEqual(["get", "post"]);
  expect(methods("/api/v1/guardrails/{id}/assignments/keys/remove")).toEqual(["post"]);
  expect(methods("/api/v1/guardrails/{id}/assignments/members")).toEqual(["get", "post"]);
  expect(methods("/api/v1/guardrails/{id}/assignments/members/remove")).toEqual(["post"]);
  expect(methods("/api/v1/guardrails/assignments/keys")).toEqual(["get"]);
  expect(methods("/api/v1/guardrails/assignments/members")).toEqual(["get"]);
  const create = doc.paths["/api/v1/guardrails"].post;
  expect(Object.keys(create.responses)).toContain("201");
  const body = resolveRef(doc, create.requestBody.content["application/json"].schema);
  expect(body.required).toEqual(["name"]);
  expect(Object.keys(body.properties)).toContain("content_filter_builtins");
  expect(create.description).toContain("invalid_regex_pattern");
});

async function fetchDoc(): Promise<any> {
  return (await fetch(`${gw.url}/api/v1/openapi.json`)).json();
}

test("the document passes Redocly's recommended rules with no error", async () => {
  const source = await (await fetch(`${gw.url}/api/v1/openapi.json`)).text();
  const problems = await lintFromString({ source, absoluteRef: "openapi.json", config: await createConfig({ extends: ["recommended"] }) });
  const errors = problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
  expect(errors).toEqual([]);
});

test("every body is described as JSON with its schema; public operations need no key, the others say which", async () => {
  const doc = await fetchDoc();
  expect(doc.servers).toEqual([{ url: "/", description: "This gateway" }]);
  const wrong: string[] = [];
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const name = `${method.toUpperCase()} ${path}`;
      if (op.requestBody) {
        if (Object.keys(op.requestBody.content ?? {}).join() !== "application/json")
          wrong.push(`${name}: body content ${Object.keys(op.requestBody.content ?? {})}`);
        const schema = resolveRef(doc, op.requestBody.content?.["application/json"]?.schema ?? {});
        if (!schema.properties && !schema.anyOf) wrong.push(`${name}: empty body schema`);
      }
      if (
        op["x-key-kind"] === undefined ? JSON.stringify(op.security) !== "[]" : JSON.stringify(op.security) !== JSON.stringify([{ bearer: [] }, { apiKey: [] }])
      )
        wrong.push(`${name}: security ${JSON.stringify(op.security)}`);
    }
  }
  expect(wrong).toEqual([]);
  const chat = doc.paths["/api/v1/chat/completions"].post.requestBody.content["application/json"].schema;
  expect(chat.required).toEqual(["messages"]);
  expect(chat.properties.temperature).toEqual({ minimum: 0, maximum: 2, type: ["number", "null"] });
});

test("integers are integers and null is a type: no coercion twin, no nullable keyword", async () => {
  const text = JSON.stringify(await fetchDoc());
  expect(text).not.toContain('"nullable"');
  expect(text).not.toContain('"format":"integer"');
  const doc = JSON.parse(text);
  const created = doc.paths["/api/v1/chat/completions"].post.responses["200"].content["application/json"].schema.properties.created;
  expect(created).toEqual({ type: "integer" });
  const offset = doc.paths["/api/v1/keys"].get.parameters.find((p: any) => p.name === "offset");
  expect(offset.schema).toEqual({ minimum: 0, maximum: 1_000_000_000, type: "integer" });
});

test("every operation lists its errors in the body its route answers them in", async () => {
  const doc = await fetchDoc();
  const wrong: string[] = [];
  for (const op of operationsOf(doc)) {
    const name = `${op.method} ${op.path}`;
    const expected = ["500", ...(op.keyKind ? ["401"] : []), ...(op.keyKind === "management" || op.keyKind === "inference" ? ["403"] : [])];
    if (op.body) expected.push("400", "413", "415");
    if (op.parameters.some((p) => p.in === "path")) expected.push("404");
    for (const status of expected) if (!op.responses[status]) wrong.push(`${name}: no ${status}`);
    for (const [status, response] of Object.entries<any>(op.responses)) {
      if (!/^[45]/.test(status)) continue;
      const schema = resolveRef(doc, response.content?.["application/json"]?.schema ?? {});
      const anthropic = schema.properties?.type?.const === "error";
      // /messages and /messages/count_tokens speak Anthropic's error shape
      if (anthropic !== op.path.startsWith("/api/v1/messages")) wrong.push(`${name} ${status}: ${anthropic ? "Anthropic's" : "the standard"} error body`);
      if (!anthropic && JSON.stringify(schema.required) !== JSON.stringify(["error"])) wrong.push(`${name} ${status}: error schema ${JSON.stringify(schema)}`);
    }
  }
  expect(wrong).toEqual([]);
});

test("/docs serves a page and its script from the binary's own assets", async () => {
  const page = await fetch(`${gw.url}/docs`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("/api/v1/openapi.json");
  expect(html).not.toMatch(/https?:\/\//);
  const script = await fetch(`${gw.url}/docs/scalar.js`);
  expect(script.status).toBe(200);
  expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
});

test("keys and workspaces show rate_limit: three nullable integers", async () => {
  const doc = (await (await fetch(`${gw.url}/api/v1/openapi.json`)).json()) as any;
  const dataOf = (path: string, method: string, status = "200") => doc.paths[path][method].responses[status].content["application/json"].schema.properties.data;
  const shown = [
    dataOf("/api/v1/keys", "post", "201"),
    dataOf("/api/v1/keys/{hash}", "get"),
    dataOf("/api/v1/keys/{hash}", "patch"),
    dataOf("/api/v1/keys", "get").items,
    dataOf("/api/v1/workspaces", "post", "201"),
    dataOf("/api/v1/workspaces/{id}", "patch"),
  ].map((data) => {
    const { type, required, properties } = data.properties.rate_limit;
    // Elysia writes an integer as "an integer, or a string holding one"
    const leafTypes = (schema: any): string[] => (schema.anyOf ? schema.anyOf.flatMap(leafTypes) : [schema.format ?? schema.type]);
    return {
      required: data.required.includes("rate_limit"),
      type,
      fields: required,
      types: Object.values<any>(properties).map((p) => [...new Set(leafTypes(p))].sort()),
    };
  });
  const expected = { required: true, type: "object", fields: ["rpm", "tpm", "concurrency"], types: Array(3).fill(["integer", "null"]) };
  expect(shown).toEqual(Array(6).fill(expected));
});

test("the observability destination operations are documented with their schemas, create's 409 among its errors", async () => {
  const doc = await fetchDoc();
  const list = doc.paths["/api/v1/observability/destinations"];
  const one = doc.paths["/api/v1/observability/destinations/{id}"];
  expect(Object.keys(list).sort()).toEqual(["get", "post"]);
  expect(Object.keys(one).sort()).toEqual(["delete", "get", "patch"]);
  const body = resolveRef(doc, list.post.requestBody.content["application/json"].schema);
  expect(body.required).toEqual(["type", "name", "config"]);
  expect(body.properties.type.enum).toEqual([
    "arize",
    "braintrust",
    "clickhouse",
    "datadog",
    "grafana",
    "langfuse",
    "langsmith",
    "newrelic",
    "opik",
    "otel-collector",
    "posthog",
    "ramp",
    "s3",
    "sentry",
    "snowflake",
    "weave",
    "webhook",
  ]);
  expect(body.properties.type.default).toBeUndefined();
  expect(body.properties.sampling_rate).toMatchObject({ minimum: 0.0001, maximum: 1 });
  expect(Object.keys(list.post.responses)).toEqual(["201", "400", "401", "403", "409", "413", "415", "500"]);
  expect(list.post.responses["409"].description).toBe("The workspace already has 5 destinations of this type");
  const created = resolveRef(doc, list.post.responses["201"].content["application/json"].schema);
  expect(resolveRef(doc, created.properties.data).required).toEqual([
    "id",
    "type",
    "name",
    "enabled",
    "privacy_mode",
    "sampling_rate",
    "regions",
    "api_key_hashes",
    "filter_rules",
    "broadcast_generation_cost",
    "broadcast_generation_identity",
    "broadcast_generation_request_context",
    "workspace_id",
    "created_at",
    "updated_at",
    "config",
  ]);
  const patch = resolveRef(doc, one.patch.requestBody.content["application/json"].schema);
  expect(patch.properties.type).toBeUndefined();
  expect(patch.properties.workspace_id).toBeUndefined();
  expect(patch.additionalProperties).toBe(false);
  expect(list.get.parameters.map((p: any) => p.name)).toEqual(["offset", "limit", "workspace_id"]);
  expect(one.patch.parameters.map((p: any) => p.name)).toEqual(["id", "skip_test", "workspace_id"]);
});

test("the PKCE flow's two operations: real request and response schemas; the exchange needs no key", async () => {
  const doc = await fetchDoc();
  const propertiesOf = (schema: any) => Object.keys(resolveRef(doc, schema).properties ?? {});
  const exchange = doc.paths["/api/v1/auth/keys"].post;
  expect(exchange.security).toEqual([]);
  expect(propertiesOf(exchange.requestBody.content["application/json"].schema)).toEqual(["code", "code_verifier", "code_challenge_method"]);
  expect(exchange.requestBody.content["application/json"].schema.properties.code_verifier.pattern).toBe("^[A-Za-z0-9._~-]{43,128}$");
  expect(propertiesOf(exchange.responses["200"].content["application/json"].schema)).toEqual(["key", "user_id"]);
  expect(exchange.responses["403"].description).toStartWith("Refused, and the code used up");
  const create = doc.paths["/api/v1/auth/keys/code"].post;
  expect(create["x-key-kind"]).toBe("any");
  expect(propertiesOf(create.requestBody.content["application/json"].schema)).toEqual([
    "callback_url",
    "code_challenge",
    "code_challenge_method",
    "limit",
    "usage_limit_type",
    "expires_at",
    "key_label",
    "workspace_id",
    "user_id",
  ]);
  const data = create.responses["200"].content["application/json"].schema.properties.data;
  expect([data.required, data.properties.app_id.type]).toEqual([["id", "app_id", "created_at"], "integer"]);
  // the HTML pages are not API operations
  for (const page of ["/login", "/logout", "/auth", "/invite"]) expect(doc.paths[page]).toBeUndefined();
});
