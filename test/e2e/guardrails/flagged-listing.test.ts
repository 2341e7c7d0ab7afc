// A content filter with action flag forwards the request and records the detection; the management
// listing GET /api/v1/generations shows it as guardrail_flags and filters on it with ?flagged.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";
import { call, guardedKey, guardrailYaml } from "./harness";

let h: GatewayAndUpstream;
let hash: string;
let flagged: string;
let clean: string;
beforeAll(async () => {
  h = await startGatewayAndUpstream({ yaml: guardrailYaml });
  const guarded = await guardedKey(h.gw, { content_filter_builtins: [{ slug: "email", action: "flag" }] });
  hash = guarded.hash;
  const chat = async (content: string) => {
    const res = await call(h.gw, guarded.key, "/chat/completions", { model: "acme/chat", messages: [{ role: "user", content }], max_tokens: 10 });
    expect(res.status).toBe(200);
    await res.text();
    return res.headers.get("x-generation-id")!;
  };
  flagged = await chat("write to a@example.com");
  clean = await chat("write to nobody");
  await h.gw.ctx.generations.settled();
});
afterAll(() => h.close());

const list = async (query: string) => {
  const res = await h.gw.api(`/api/v1/generations${query}`);
  return { status: res.status, body: (await res.json()) as any };
};
const flagsOf = (body: any) => body.data.map((g: any) => [g.id, g.guardrail_flags]);

test("each listed generation carries guardrail_flags: the flagging filters' names, or an empty array", async () => {
  const all = await list("");
  expect(all.status).toBe(200);
  expect(flagsOf(all.body)).toEqual([
    [clean, []],
    [flagged, ["Email address"]],
  ]);
  // the rest of a listed generation is its GET /generation record, which keeps OpenRouter's shape (no guardrail_flags)
  const one = (await h.gw.api(`/api/v1/generation?id=${flagged}`).then((r) => r.json())) as any;
  expect(one.data.guardrail_flags).toBeUndefined();
  const { feedback: _feedback, ...record } = one.data;
  expect(all.body.data[1]).toEqual({ ...record, guardrail_flags: ["Email address"] });
});

test("?flagged=true lists only the flagged generations, false only the others, with the other filters too", async () => {
  expect(flagsOf((await list("?flagged=true")).body)).toEqual([[flagged, ["Email address"]]]);
  expect(flagsOf((await list("?flagged=false")).body)).toEqual([[clean, []]]);
  expect(flagsOf((await list(`?flagged=true&api_key_hash=${hash}&status=success&model=acme/chat`)).body)).toEqual([[flagged, ["Email address"]]]);
  expect(flagsOf((await list("?flagged=true&api_key_hash=nobody")).body)).toEqual([]);
  const page = await list("?flagged=true&limit=1");
  expect(page.body.next_cursor).toBeNull();
});

test("a flagged value other than true or false is a 400 naming the field", async () => {
  const res = await list("?flagged=yes");
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({
    code: 400,
    message: `Invalid query parameter 'flagged': expected one of "true", "false", got "yes"`,
    metadata: { field: "flagged" },
  });
});

test("the OpenAPI description documents the filter and the field", async () => {
  const doc = (await (await fetch(`${h.gw.url}/api/v1/openapi.json`)).json()) as any;
  const op = doc.paths["/api/v1/generations"].get;
  expect(op.parameters.find((p: any) => p.name === "flagged")).toMatchObject({
    in: "query",
    required: false,
    schema: { type: "string", enum: ["true", "false"] },
  });
  const item = op.responses["200"].content["application/json"].schema.properties.data.items;
  expect(item.properties.guardrail_flags).toMatchObject({ type: "array", items: { type: "string" } });
  expect(item.required).toContain("guardrail_flags");
});
