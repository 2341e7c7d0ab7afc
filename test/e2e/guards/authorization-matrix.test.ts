import { afterAll, beforeAll, expect, test } from "bun:test";
import { type ApiOperation, errorOf, fetchDocument, fillPath, operationsOf } from "../../support/api-document";
import { ADMIN_KEY, createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";

/**
 * Every operation of the API document x every kind of caller, each sending a body that is not
 * JSON and a query that is not valid: the status is the one the operation's key rule gives,
 * never a 400 to a caller who may not call it. Workspace A owns the data; the inference key of
 * workspace B sees none of it in any answer. New routes are covered through the document.
 */
const MARKER = "marker-of-workspace-a-7f3c";
const HOUR = 3_600_000;
let now = Date.parse("2026-06-01T12:00:00Z");
let gw: TestGateway;
let ops: ApiOperation[];
let workspaceA: { id: string; slug: string };
let keyA: { key: string; hash: string };
const callers: Record<string, string | null> = {};

beforeAll(async () => {
  gw = await startTestGateway({ clock: () => now });
  ops = operationsOf(await fetchDocument(gw.url));
  const created = await gw.api("/api/v1/workspaces", { method: "POST", json: { name: MARKER, slug: "team-a" } });
  workspaceA = ((await created.json()) as any).data;
  const workspaceB = ((await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "team b", slug: "team-b" } })).json()) as any).data;
  keyA = await createInferenceKey(gw, { name: MARKER, workspace_id: workspaceA.id });
  const preset = await gw.api("/api/v1/presets/preset-a/responses", {
    method: "POST",
    key: keyA.key,
    json: { model: "openai/gpt-4o-mini", instructions: MARKER },
  });
  expect(preset.status).toBe(200);
  const disabled = await createInferenceKey(gw, { workspace_id: workspaceA.id });
  expect((await gw.api(`/api/v1/keys/${disabled.hash}`, { method: "PATCH", json: { disabled: true } })).status).toBe(200);
  const expired = await createInferenceKey(gw, { workspace_id: workspaceA.id, expires_at: new Date(now + HOUR).toISOString().replace(/\.\d+Z$/, "Z") });
  now += 2 * HOUR;
  Object.assign(callers, {
    "no key": null,
    "unknown key": "sk-gw-v1-0000000000000000000000000000000000000000000000000000000000000000",
    "disabled key": disabled.key,
    "expired key": expired.key,
    "inference key": keyA.key,
    "management key": ADMIN_KEY,
    "another workspace's inference key": (await createInferenceKey(gw, { workspace_id: workspaceB.id })).key,
  });
});
afterAll(() => gw.close());

/** The status class a caller gets from an operation under the key rules (auth.ts); "allowed" is anything but 401 and 403. */
function expected(op: ApiOperation, caller: string): 401 | 403 | "allowed" {
  if (!op.keyKind) return "allowed";
  if (["no key", "unknown key", "disabled key", "expired key"].includes(caller)) return 401;
  const management = caller === "management key";
  if (op.keyKind === "management" && !management) return 403;
  if (op.keyKind === "inference" && management) return 403;
  return "allowed";
}

function send(op: ApiOperation, key: string | null, url: string, body: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return fetch(gw.url + url, { method: op.method, headers, body: op.method === "GET" || op.method === "HEAD" ? undefined : body });
}

const badQuery = (op: ApiOperation) => `?${[...op.parameters.filter((p) => p.in === "query").map((p) => `${p.name}=%7Bnot%20valid`), "offset=-1"].join("&")}`;

test("each operation x each caller, with a body and a query that are wrong: the key rule decides first", async () => {
  const wrong: string[] = [];
  for (const op of ops) {
    for (const [caller, key] of Object.entries(callers)) {
      const res = await send(op, key, `${fillPath(op.path, () => "x")}${badQuery(op)}`, "{not json");
      const rule = expected(op, caller);
      const got = res.status;
      const text = await res.text();
      if (rule === "allowed" ? got === 401 || got === 403 : got !== rule)
        wrong.push(`${op.method} ${op.path} with ${caller}: ${got}, expected ${rule}: ${text}`);
      if (got >= 400 && got < 500) {
        const error = errorOf(op.errorShape, got, JSON.parse(text));
        if (typeof error === "string") wrong.push(`${op.method} ${op.path} with ${caller}: ${error}`);
      }
    }
  }
  expect(wrong).toEqual([]);
  expect(ops.length).toBeGreaterThan(40);
});

test("/messages tells a caller without a key both ways to send one, in Anthropic's shape", async () => {
  const res = await fetch(`${gw.url}/api/v1/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({
    type: "error",
    error: { type: "authentication_error", message: "Missing API key: send Authorization: Bearer <key> or x-api-key: <key>" },
    request_id: null,
  });
});

test("another workspace's key, naming workspace A's things, gets nothing of them", async () => {
  const ofA = (name: string) => ({ hash: keyA.hash, slug: "preset-a", version: "1", author: "openai" })[name] ?? workspaceA.id;
  const key = callers["another workspace's inference key"]!;
  const leaks: string[] = [];
  // reads first: a write (POST /presets/preset-a/...) makes the caller a thing of its own under A's name
  const readsFirst = [...ops].sort((a, b) => Number(a.method !== "GET") - Number(b.method !== "GET"));
  for (const op of readsFirst) {
    const required = op.parameters.filter((p) => p.in === "query" && p.required);
    const url = `${fillPath(op.path, ofA)}?${required.map((p) => `${p.name}=${encodeURIComponent(ofA(p.name))}`).join("&")}`;
    const res = await send(op, key, url, "{}");
    const text = await res.text();
    // what the request itself names may be echoed ("Preset not found: preset-a"); nothing else of A may appear
    for (const secret of [MARKER, workspaceA.id, keyA.hash])
      if (!url.includes(secret) && text.includes(secret)) leaks.push(`${op.method} ${op.path} (${res.status}) shows ${secret}`);
  }
  expect(leaks).toEqual([]);
});
