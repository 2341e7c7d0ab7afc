import { afterAll, beforeAll, expect, test } from "bun:test";
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
    return { required: data.required.includes("rate_limit"), type, fields: required, types: Object.values<any>(properties).map((p) => [...new Set(leafTypes(p))].sort()) };
  });
  const expected = { required: true, type: "object", fields: ["rpm", "tpm", "concurrency"], types: Array(3).fill(["integer", "null"]) };
  expect(shown).toEqual(Array(6).fill(expected));
});
