// Audit events of the changes that came after the audit log: guardrails (create, update, delete,
// assignments of keys and members) and response cache purges, one event per change, with what
// changed; a refused change writes none, and no raw key appears in any event.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN_KEY, type TestGateway } from "../../support/gateway";
import { type AuditGateway, adminKeyHash, startAuditGateway } from "./harness";

let gw: TestGateway;
const UA = "audit-guardrails/1.0";
let call: AuditGateway["call"];
let events: AuditGateway["events"];

let guardrailId = "";
let keyHash = "";
let rawKey = "";
let teamId = "";
let before = 0;

beforeAll(async () => {
  ({ gw, call, events } = await startAuditGateway(UA));
  const key = await call("POST", "/api/v1/keys", { name: "k" });
  [keyHash, rawKey] = [key.data.hash, key.key];
  teamId = (await call("POST", "/api/v1/workspaces", { name: "Team", slug: "team" })).data.id;
  await call("POST", "/api/v1/organization/members", { id: "carol", email: "carol@example.com", role: "member" });
  before = (await events()).length;
  guardrailId = (await call("POST", "/api/v1/guardrails", { name: "strict", allowed_models: ["test/alpha"], limit_usd: 5, reset_interval: "monthly" })).data.id;
  await call("PATCH", `/api/v1/guardrails/${guardrailId}`, { name: "stricter", limit_usd: null, reset_interval: null });
  await call("POST", `/api/v1/guardrails/${guardrailId}/assignments/keys`, { key_hashes: [keyHash] });
  await call("POST", `/api/v1/guardrails/${guardrailId}/assignments/keys/remove`, { key_hashes: [keyHash] });
  await call("POST", `/api/v1/guardrails/${guardrailId}/assignments/members`, { member_user_ids: ["carol"] });
  await call("POST", `/api/v1/guardrails/${guardrailId}/assignments/members/remove`, { member_user_ids: ["carol"] });
  await call("DELETE", `/api/v1/guardrails/${guardrailId}`);
  // refused: no event
  expect((await gw.api("/api/v1/guardrails", { method: "POST", json: { name: "x", limit_usd: 5 } })).status).toBe(400);
  expect((await gw.api("/api/v1/guardrails/nope", { method: "DELETE" })).status).toBe(404);
  expect((await gw.api("/api/v1/cache?workspace_id=nope", { method: "DELETE" })).status).toBe(404);
  await call("DELETE", "/api/v1/cache?workspace_id=team");
  await call("DELETE", "/api/v1/cache");
});
afterAll(async () => {
  await gw?.close();
});

describe("audit events of guardrails and cache purges", () => {
  test("one event per change, in order, none for a refused one", async () => {
    const all = await events();
    expect(all.length - before).toBe(9);
    expect(
      all
        .slice(0, 9)
        .map((e) => e.action)
        .reverse(),
    ).toEqual([
      "guardrail.create",
      "guardrail.update",
      "guardrail.assign",
      "guardrail.unassign",
      "guardrail.assign",
      "guardrail.unassign",
      "guardrail.delete",
      "cache.purge",
      "cache.purge",
    ]);
  });

  test("a guardrail's create, update and delete name it and what changed", async () => {
    const [created] = await events("&action=guardrail.create");
    expect(created).toEqual({
      id: created.id,
      created_at: created.created_at,
      actor: { type: "key", id: adminKeyHash, label: "Admin key (GATEWAY_ADMIN_KEY)" },
      action: "guardrail.create",
      target: { type: "guardrail", id: guardrailId },
      workspace_id: created.workspace_id,
      ip: "127.0.0.1",
      user_agent: UA,
      changes: {
        name: { from: null, to: "strict" },
        workspace_id: { from: null, to: created.workspace_id },
        limit_usd: { from: null, to: 5 },
        reset_interval: { from: null, to: "monthly" },
        include_byok_in_budgets: { from: null, to: false },
        allowed_models: { from: null, to: ["test/alpha"] },
      },
      hash: created.hash,
    });
    const [updated] = await events("&action=guardrail.update");
    expect([updated.target, updated.changes]).toEqual([
      { type: "guardrail", id: guardrailId },
      { name: { from: "strict", to: "stricter" }, limit_usd: { from: 5, to: null }, reset_interval: { from: "monthly", to: null } },
    ]);
    const [deleted] = await events("&action=guardrail.delete");
    expect([deleted.target, deleted.changes]).toEqual([
      { type: "guardrail", id: guardrailId },
      {
        name: { from: "stricter", to: null },
        workspace_id: { from: deleted.workspace_id, to: null },
        include_byok_in_budgets: { from: false, to: null },
        allowed_models: { from: ["test/alpha"], to: null },
      },
    ]);
  });

  test("assignments name the keys and members", async () => {
    const assigned = await events("&action=guardrail.assign");
    expect(assigned.map((e) => [e.target, e.changes])).toEqual([
      [{ type: "guardrail", id: guardrailId }, { member_user_ids: { from: null, to: ["carol"] } }],
      [{ type: "guardrail", id: guardrailId }, { key_hashes: { from: null, to: [keyHash] } }],
    ]);
    const unassigned = await events("&action=guardrail.unassign");
    expect(unassigned.map((e) => e.changes)).toEqual([{ member_user_ids: { from: ["carol"], to: null } }, { key_hashes: { from: [keyHash], to: null } }]);
  });

  test("a purge names the workspace, or none for every workspace's, and how many entries went", async () => {
    const [all, team] = await events("&action=cache.purge");
    expect([team.target, team.workspace_id, team.changes]).toEqual([{ type: "response_cache", id: teamId }, teamId, { deleted: { from: null, to: 0 } }]);
    expect([all.target, all.workspace_id, all.changes]).toEqual([{ type: "response_cache", id: null }, null, { deleted: { from: null, to: 0 } }]);
  });

  test("no raw key in any event; the chain verifies", async () => {
    const text = JSON.stringify(await events());
    expect([text.includes(rawKey), text.includes(ADMIN_KEY)]).toEqual([false, false]);
    expect(((await (await gw.api("/api/v1/audit-logs/verify")).json()) as any).ok).toBe(true);
  });
});
