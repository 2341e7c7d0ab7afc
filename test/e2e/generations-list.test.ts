// GET /api/v1/generations: the management view of what the gateway served, filtered and paged.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, MODEL, minimalBody, post, startHarness } from "./inference/harness";

let h: Harness;
const ids: string[] = [];
beforeAll(async () => {
  h = await startHarness();
  h.up.enqueue({ text: "one", usage: { input: 3, output: 1 } }, { status: 400 }, { text: "three", usage: { input: 3, output: 1 } });
  for (const model of [MODEL["openai-chat"], MODEL["openai-chat"], MODEL["anthropic-messages"]]) {
    const res = await post(h, "chat", minimalBody("chat", model));
    ids.push(res.headers.get("x-generation-id")!);
    await res.text();
  }
  await h.gw.ctx.generations.settled();
});
afterAll(() => h.close());

const list = async (query: string, key?: string) => {
  const res = await h.gw.api(`/api/v1/generations${query}`, key ? { key } : {});
  return { status: res.status, body: (await res.json()) as any };
};

test("newest first, each as GET /generation gives it (without feedback), filtered by model and status", async () => {
  const all = await list("");
  expect(all.status).toBe(200);
  expect(all.body.data.map((g: any) => g.id)).toEqual([...ids].reverse());
  expect(all.body.next_cursor).toBeNull();
  const one = (await h.gw.api(`/api/v1/generation?id=${ids[0]}`).then((r) => r.json())) as any;
  const { feedback: _feedback, ...expected } = one.data;
  expect(all.body.data[2]).toEqual({ ...expected, guardrail_flags: [] });
  expect((await list(`?model=${MODEL["anthropic-messages"]}`)).body.data.map((g: any) => g.id)).toEqual([ids[2]]);
  expect((await list("?status=error")).body.data.map((g: any) => [g.id, g.finish_reason])).toEqual([[ids[1], "error"]]);
  expect((await list("?status=success&provider=oc")).body.data.map((g: any) => g.id)).toEqual([ids[0]]);
  expect(all.body.data[0].provider_responses.map((a: any) => a.provider_name)).toEqual(["an"]);
});

test("keyset pages: limit and next_cursor walk every generation once", async () => {
  const seen: string[] = [];
  let query = "?limit=1";
  for (let i = 0; i < 5; i++) {
    const page = await list(query);
    expect(page.body.data.length).toBeLessThanOrEqual(1);
    seen.push(...page.body.data.map((g: any) => g.id));
    if (page.body.next_cursor === null) break;
    query = `?limit=1&cursor=${page.body.next_cursor}`;
  }
  expect(seen).toEqual([...ids].reverse());
});

test("a time range, and 400s naming the field", async () => {
  const future = new Date(Date.now() + 3_600_000).toISOString();
  expect((await list(`?from=${future}`)).body.data).toEqual([]);
  expect((await list(`?to=${future}`)).body.data.length).toBe(3);
  for (const [query, field] of [
    ["?status=done", "status"],
    ["?limit=0", "limit"],
    ["?cursor=bm9wZQ", "cursor"],
    ["?from=yesterday", "from"],
  ] as const) {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.metadata.field).toBe(field);
  }
});

test("inference keys may not list", async () => {
  const res = await list("", h.key);
  expect(res.status).toBe(403);
});
