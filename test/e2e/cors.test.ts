// Browsers may call the API from another origin: preflights answer 204 with what the clients
// send, and every answer (JSON, stream, error) carries the origin header, never credentials.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../support/gateway";
import { type MockUpstream, startMockUpstream } from "../support/mock-upstream";
import { gatewayYaml, MODEL } from "./inference/harness";

const ORIGIN = "https://app.example";
let up: MockUpstream;
let open: TestGateway;
let listed: TestGateway;
let key: string;

beforeAll(async () => {
  up = await startMockUpstream();
  open = await startTestGateway({ yaml: gatewayYaml(up.url) });
  listed = await startTestGateway({ yaml: `${gatewayYaml(up.url)}server:\n  cors_origins: ["${ORIGIN}", "http://localhost:3000"]\n` });
  key = (await createInferenceKey(open)).key;
});
afterAll(async () => {
  await open.close();
  await listed.close();
  await up.stop();
});

const preflight = (gw: TestGateway, path: string, origin = ORIGIN) =>
  fetch(gw.url + path, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, x-api-key, anthropic-version" },
  });

const chat = (gw: TestGateway, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { origin: ORIGIN, authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("default: any origin, no credentials", () => {
  test("a preflight is a 204 listing the methods and the headers clients send", async () => {
    const res = await preflight(open, "/api/v1/chat/completions");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, POST, PUT, PATCH, DELETE, OPTIONS");
    const allowed = res.headers.get("access-control-allow-headers")!.split(", ");
    for (const h of ["authorization", "content-type", "x-api-key", "anthropic-version", "x-session-id", "x-service-experimental-metadata"])
      expect(allowed).toContain(h);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("access-control-max-age")).toBe("600");
  });

  test("JSON, streamed and error answers carry the origin header and expose X-Generation-Id", async () => {
    const json = await chat(open, { model: MODEL["openai-chat"], messages: [{ role: "user", content: "hi" }] });
    expect(json.status).toBe(200);
    expect(json.headers.get("access-control-allow-origin")).toBe("*");
    expect(json.headers.get("access-control-expose-headers")).toContain("x-generation-id");
    const stream = await chat(open, { model: MODEL["openai-chat"], stream: true, messages: [{ role: "user", content: "hi" }] });
    expect(stream.headers.get("access-control-allow-origin")).toBe("*");
    expect(await stream.text()).toContain("[DONE]");
    const invalid = await chat(open, { model: MODEL["openai-chat"], messages: [{ role: "wizard", content: "hi" }] });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("access-control-allow-origin")).toBe("*");
    const unauthenticated = await chat(open, { model: MODEL["openai-chat"], messages: [{ role: "user", content: "hi" }] }, { authorization: "Bearer nope" });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("access-control-allow-origin")).toBe("*");
    const tooLarge = await chat(open, { model: MODEL["openai-chat"], messages: [{ role: "user", content: "x".repeat(40 * 1024 * 1024) }] });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("outside /api/v1 and without an Origin nothing is added", async () => {
    expect((await fetch(`${open.url}/health`, { headers: { origin: ORIGIN } })).headers.get("access-control-allow-origin")).toBeNull();
    const res = await fetch(`${open.url}/api/v1/models`);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("server.cors_origins lists the origins allowed", () => {
  test("a listed origin is echoed with Vary: Origin; another gets no CORS headers", async () => {
    const ok = await preflight(listed, "/api/v1/messages");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(ok.headers.get("vary")).toBe("Origin");
    const models = await fetch(`${listed.url}/api/v1/models`, { headers: { origin: "http://localhost:3000" } });
    expect(models.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    const other = await preflight(listed, "/api/v1/messages", "https://evil.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const otherGet = await fetch(`${listed.url}/api/v1/models`, { headers: { origin: "https://evil.example" } });
    expect(otherGet.headers.get("access-control-allow-origin")).toBeNull();
  });
});
