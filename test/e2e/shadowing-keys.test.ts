// JSON objects whose own keys shadow Object.prototype's (`toString`, `valueOf`) where a string is
// expected: a 400 naming the field, never a 500 (Elysia 1.4.30 threw while describing them).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestGateway, type TestGateway } from "../support/gateway";

let gw: TestGateway;
beforeAll(async () => (gw = await startTestGateway()));
afterAll(() => gw.close());

test.each([[{ toString: 0 }], [[{ toString: 0 }]], [{ valueOf: "x", toString: null }]])("a key named %j is a 400 naming the field", async (name) => {
  const res = await gw.api("/api/v1/keys", { method: "POST", json: { name } });
  expect(res.status).toBe(400);
  const body = (await res.json()) as { error: { code: number; message: string; metadata: Record<string, unknown> } };
  expect(body.error.code).toBe(400);
  expect(body.error.metadata).toMatchObject({ location: "body", field: "name" });
  expect(body.error.message).toStartWith("Invalid field 'name': expected a string of 1 to 256 characters, got ");
});
