// References that resolve to nothing are a 400 naming the field and the remedy (send the items
// themselves with store: false): an unknown id, another workspace's id, an expired id (the
// gateway's clock moved past the retention), and any id when retention is 0. Nothing goes upstream.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";
import { gatewayYaml, MODEL } from "../inference/harness";

const model = MODEL["openai-chat"];

type Setup = GatewayAndUpstream & { now: { ms: number } };

async function setup(retentionMinutes: number): Promise<Setup> {
  const now = { ms: Date.parse("2026-11-23T12:00:00Z") };
  const started = await startGatewayAndUpstream({
    yaml: (url) => `${gatewayYaml(url)}\nresponses: { item_retention_minutes: ${retentionMinutes} }\n`,
    clock: () => now.ms,
  });
  return { ...started, now };
}

const respond = (s: Setup, body: Record<string, unknown>, key = s.key) => s.gw.api("/api/v1/responses", { method: "POST", key, json: { model, ...body } });

async function expectError(res: Response, message: string, field: string): Promise<void> {
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: { code: 400, message, metadata: { field } } });
}

/** A first answer; returns its id and its message item's id. */
async function firstAnswer(s: Setup, key = s.key): Promise<{ id: string; itemId: string }> {
  s.up.enqueue({ text: "A1" });
  const body = (await (await respond(s, { input: "q1" }, key)).json()) as any;
  return { id: body.id, itemId: body.output[0].id };
}

const withReference = (id: string) => ({
  input: [
    { role: "user", content: "q1" },
    { type: "item_reference", id },
    { role: "user", content: "q2" },
  ],
});

describe("with a 5-minute retention", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(5);
  });
  afterAll(() => s.close());

  test("an unknown item id", async () => {
    await expectError(
      await respond(s, withReference("msg_nope")),
      "Invalid field 'input[1].id': no stored item 'msg_nope' in this workspace (unknown, or older than the 5-minute retention); send the item itself with store: false",
      "input[1].id",
    );
  });

  test("an unknown previous_response_id", async () => {
    await expectError(
      await respond(s, { previous_response_id: "gen-0-nope", input: "q2" }),
      "Invalid field 'previous_response_id': no stored response 'gen-0-nope' in this workspace (unknown, or older than the 5-minute retention); send the earlier items themselves in input with store: false",
      "previous_response_id",
    );
  });

  test("ids of another workspace are unknown here", async () => {
    const workspace = ((await (await s.gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Other", slug: "other" } })).json()) as any).data;
    const other = await createInferenceKey(s.gw, { workspace_id: workspace.id });
    const theirs = await firstAnswer(s, other.key);
    const before = s.up.requests.length;
    await expectError(
      await respond(s, withReference(theirs.itemId)),
      `Invalid field 'input[1].id': no stored item '${theirs.itemId}' in this workspace (unknown, or older than the 5-minute retention); send the item itself with store: false`,
      "input[1].id",
    );
    await expectError(
      await respond(s, { previous_response_id: theirs.id, input: "q2" }),
      `Invalid field 'previous_response_id': no stored response '${theirs.id}' in this workspace (unknown, or older than the 5-minute retention); send the earlier items themselves in input with store: false`,
      "previous_response_id",
    );
    expect(s.up.requests.length).toBe(before);
    // the workspace that made them still can
    s.up.enqueue({ text: "A2" });
    expect((await respond(s, withReference(theirs.itemId), other.key)).status).toBe(200);
  });

  test("items expire with the retention, read before any purge", async () => {
    const first = await firstAnswer(s);
    s.now.ms += 5 * 60_000 - 1;
    s.up.enqueue({ text: "A2" });
    // (continuing the response does not renew it; referring to an item would renew the item)
    expect((await respond(s, { previous_response_id: first.id, input: "q2" })).status).toBe(200);
    s.now.ms += 1;
    await expectError(
      await respond(s, withReference(first.itemId)),
      `Invalid field 'input[1].id': no stored item '${first.itemId}' in this workspace (unknown, or older than the 5-minute retention); send the item itself with store: false`,
      "input[1].id",
    );
    await expectError(
      await respond(s, { previous_response_id: first.id, input: "q2" }),
      `Invalid field 'previous_response_id': no stored response '${first.id}' in this workspace (unknown, or older than the 5-minute retention); send the earlier items themselves in input with store: false`,
      "previous_response_id",
    );
  });

  test("a reference keeps the item alive as long as the answer that used it", async () => {
    const first = await firstAnswer(s);
    s.now.ms += 4 * 60_000;
    s.up.enqueue({ text: "A2" });
    expect((await respond(s, withReference(first.itemId))).status).toBe(200);
    s.now.ms += 4 * 60_000;
    s.up.enqueue({ text: "A3" });
    expect((await respond(s, withReference(first.itemId))).status).toBe(200);
  });
});

describe("with retention 0", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(0);
  });
  afterAll(() => s.close());

  test("nothing is kept: answers say store: false, references are refused", async () => {
    const first = await firstAnswer(s);
    s.up.enqueue({ text: "A" });
    const answer = (await (await respond(s, { input: "q", store: true })).json()) as any;
    expect(answer.store).toBe(false);
    await expectError(
      await respond(s, withReference(first.itemId)),
      "Invalid field 'input[1].id': this gateway keeps no items (responses.item_retention_minutes is 0); send the item itself with store: false",
      "input[1].id",
    );
    await expectError(
      await respond(s, { previous_response_id: first.id, input: "q2" }),
      "Invalid field 'previous_response_id': this gateway keeps no responses (responses.item_retention_minutes is 0); send the earlier items themselves in input with store: false",
      "previous_response_id",
    );
    // and nothing was written
    const { store } = s.gw.ctx;
    const workspace = await store.workspaces.getDefault();
    expect(await store.responses.conversation(workspace!.id, first.id, s.now.ms)).toBeUndefined();
  });
});
