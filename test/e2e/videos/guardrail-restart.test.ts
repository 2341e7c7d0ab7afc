// A video job's guardrail budgets through a gateway restart, on SQLite and PostgreSQL (issue 42):
// the job's reservation (the key's guardrail and its creator's member guardrail) is still held by
// the next process while the job goes on (SQLite: held again from the job's row at start, its
// book having died with the first process; PostgreSQL: its row outlived it), so no new job is
// admitted past the budget meanwhile; the job settles in the new process's worker thread,
// charged once, nothing left held.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../../support/gateway";
import { describePostgres } from "../../support/postgres";
import { startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { guardrailFor } from "../guardrails/harness";
import { guardedVideoYaml, postgresDatabase, type ScenarioDatabase, submitVideo, videoTerminal } from "./guardrail-setup";

function restartScenario(label: string, database?: ScenarioDatabase) {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  test(`${label}: a job in progress keeps its guardrail holds across a restart and is charged once after it`, async () => {
    const up = startOpenAiVideoMock({ bytes: 1_000 });
    cleanups.push(() => up.stop());
    const dir = tempDir("gw-video-guard-restart-");
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = await database?.();
    if (db) cleanups.push(() => db.drop());
    const start = () => startTestGateway({ dir, yaml: guardedVideoYaml(up.url), env: { WORKERS: "1", ...db?.env } });
    let gw: TestGateway = await start();
    let open = true;
    cleanups.push(() => (open ? gw.close() : undefined));

    const workspace = (await gw.ctx.store.workspaces.getDefault())!.id;
    await gw.ctx.store.users.create({ id: "restart-member", email: null, name: null, role: "member", createdAt: gw.ctx.clock() });
    const [a, b] = await Promise.all([0, 1].map(() => createInferenceKey(gw, { creator_user_id: "restart-member" })));
    const keyCap = await guardrailFor(gw, { name: "Key cap", limit_usd: 1, reset_interval: "daily" }, a!.hash);
    const memberCap = await guardrailFor(gw, { name: "Member cap", limit_usd: 2, reset_interval: "monthly" });
    await gw.api(`/api/v1/guardrails/${memberCap}/assignments/members`, { method: "POST", json: { member_user_ids: ["restart-member"] } });

    up.progressPolls = 1_000_000;
    const res = await submitVideo(gw, a!.key, { model: "acme/clip", prompt: "p", duration: 8 });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(await gw.ctx.store.reservations.held(a!.hash)).toBe(810_000_000);
    expect(await gw.ctx.store.guardrails.memberHeld(workspace, "restart-member")).toBe(810_000_000);

    open = false;
    await gw.close();
    gw = await start();
    open = true;
    expect(await gw.ctx.store.reservations.held(a!.hash)).toBe(810_000_000);
    expect(await gw.ctx.store.guardrails.memberHeld(workspace, "restart-member")).toBe(810_000_000);
    // while the job goes on, $0.19 is left of key a's budget (no $0.41 video) and $1.19 of the member's (no $1.21 one)
    const overKey = await submitVideo(gw, a!.key, { model: "acme/clip", prompt: "p", duration: 4 });
    expect(overKey.status).toBe(402);
    expect(((await overKey.json()) as { error: { metadata: unknown } }).error.metadata).toEqual({
      limit_source: "openrouter_guardrail_budget",
      guardrail_id: keyCap,
    });
    const overMember = await submitVideo(gw, b!.key, { model: "acme/clip", prompt: "p", duration: 12 });
    expect(overMember.status).toBe(402);
    expect(((await overMember.json()) as { error: { metadata: unknown } }).error.metadata).toEqual({
      limit_source: "openrouter_guardrail_budget",
      guardrail_id: memberCap,
    });

    up.progressPolls = 1;
    const done = await videoTerminal(gw, a!.key, id, 20_000);
    expect(done).toMatchObject({ status: "completed", usage: { cost: 0.81 } });
    expect(up.creates).toHaveLength(1);
    expect(await gw.ctx.store.reservations.held(a!.hash)).toBe(0);
    expect(await gw.ctx.store.guardrails.memberHeld(workspace, "restart-member")).toBe(0);
    expect((await gw.ctx.store.usage.get(a!.hash))?.day).toBe(810_000_000);
    expect((await gw.ctx.store.guardrails.memberUsage(workspace, "restart-member"))?.month).toBe(810_000_000);
  }, 60_000);
}

describe("video guardrail holds across a restart on SQLite", () => {
  restartScenario("sqlite");
});

describePostgres("video guardrail holds across a restart on PostgreSQL", () => {
  restartScenario("postgres", postgresDatabase);
});
