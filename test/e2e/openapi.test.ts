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
