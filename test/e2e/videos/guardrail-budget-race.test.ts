// Guardrail budgets under concurrent video submissions, on SQLite and PostgreSQL (issue 42): 20
// parallel jobs against a small budget never hold nor spend past it, whether the guardrail is the
// key's or its creator's (a member's, across the member's keys). The jobs are held in progress
// while the reservations are measured, then settle in the job worker thread, which has the
// serving process release them (SQLite) or frees them in its own commit (PostgreSQL).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { describePostgres } from "../../support/postgres";
import { guardrailFor } from "../guardrails/harness";
import { type GuardedVideoHarness, postgresDatabase, type ScenarioDatabase, startGuardedVideoHarness, submitVideo, videoTerminal } from "./guardrail-setup";

const JOBS = 20;
/** $2: about three jobs' worth (4, 8 and 12 s videos cost $0.41, $0.81, $1.21) */
const BUDGET_NANOS = 2_000_000_000;
const DURATIONS = [4, 8, 12] as const;
const costOf = (duration: number) => duration * 100_000_000 + 10_000_000;

type Outcome = { status: number; id?: string; key: string; duration: number; body: { error?: { metadata?: Record<string, unknown> } } };

/** 20 submissions at once, spread over `keys`; the upstream keeps every accepted job in progress until `release`. */
async function race(h: GuardedVideoHarness, keys: string[]): Promise<{ outcomes: Outcome[]; release(): Promise<void> }> {
  h.up.progressPolls = 1_000_000;
  const outcomes = await Promise.all(
    Array.from({ length: JOBS }, async (_, i): Promise<Outcome> => {
      const key = keys[i % keys.length]!;
      const duration = DURATIONS[i % DURATIONS.length]!;
      const res = await submitVideo(h.gw, key, { model: "acme/clip", prompt: `race ${i}`, duration });
      const body = (await res.json()) as Outcome["body"] & { id?: string };
      return { status: res.status, id: body.id, key, duration, body };
    }),
  );
  return {
    outcomes,
    async release() {
      h.up.progressPolls = 1;
      for (const o of outcomes.filter((o) => o.status === 202)) expect((await videoTerminal(h.gw, o.key, o.id!, 30_000)).status).toBe("completed");
    },
  };
}

const admittedCost = (outcomes: Outcome[]) => outcomes.filter((o) => o.status === 202).reduce((sum, o) => sum + costOf(o.duration), 0);

/** `database`: where the gateway keeps its state (absent: a SQLite file), dropped after the gateway closed. */
function videoBudgetRace(label: string, database?: ScenarioDatabase) {
  let h: GuardedVideoHarness;
  let db: Awaited<ReturnType<NonNullable<typeof database>>> | undefined;
  beforeAll(async () => {
    db = await database?.();
    h = await startGuardedVideoHarness(db?.env);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  }, 60_000);

  test(`${label}: ${JOBS} parallel video jobs never hold or spend past a key's guardrail budget`, async () => {
    const { key, hash } = await createInferenceKey(h.gw);
    const guardrailId = await guardrailFor(h.gw, { name: "Video race", limit_usd: BUDGET_NANOS / 1e9, reset_interval: "monthly" }, hash);
    const { outcomes, release } = await race(h, [key]);
    expect(outcomes.every((o) => o.status === 202 || o.status === 402)).toBe(true);
    const refusals = outcomes.filter((o) => o.status === 402);
    expect(refusals.length).toBeGreaterThan(0);
    for (const r of refusals) expect(r.body.error?.metadata).toEqual({ limit_source: "openrouter_guardrail_budget", guardrail_id: guardrailId });
    const held = await h.gw.ctx.store.reservations.held(hash);
    expect(held).toBe(admittedCost(outcomes));
    expect(held).toBeLessThanOrEqual(BUDGET_NANOS);
    await release();
    expect(h.up.creates.length).toBe(JOBS - refusals.length);
    const spent = (await h.gw.ctx.store.usage.get(hash))?.month ?? 0;
    expect(spent).toBe(admittedCost(outcomes));
    expect(spent).toBeLessThanOrEqual(BUDGET_NANOS);
    expect(await h.gw.ctx.store.reservations.held(hash)).toBe(0);
    console.log(
      `video guardrail key budget ${label}: ${JOBS - refusals.length} admitted, held and spent $${(spent / 1e9).toFixed(2)} of $${BUDGET_NANOS / 1e9}`,
    );
  }, 90_000);

  test(`${label}: a member guardrail's budget counts the video jobs of all the member's keys together`, async () => {
    h.up.creates.length = 0;
    const workspace = (await h.gw.ctx.store.workspaces.getDefault())!.id;
    const member = `video-racer-${label}`;
    await h.gw.ctx.store.users.create({ id: member, email: null, name: null, role: "member", createdAt: h.gw.ctx.clock() });
    const keys = await Promise.all([0, 1, 2].map(() => createInferenceKey(h.gw, { creator_user_id: member })));
    const guardrailId = await guardrailFor(h.gw, { name: "Member video race", limit_usd: BUDGET_NANOS / 1e9, reset_interval: "daily" });
    await h.gw.api(`/api/v1/guardrails/${guardrailId}/assignments/members`, { method: "POST", json: { member_user_ids: [member] } });
    const { outcomes, release } = await race(
      h,
      keys.map((k) => k.key),
    );
    expect(outcomes.filter((o) => o.status === 402).length).toBeGreaterThan(0);
    const held = await h.gw.ctx.store.guardrails.memberHeld(workspace, member);
    expect(held).toBe(admittedCost(outcomes));
    expect(held).toBeLessThanOrEqual(BUDGET_NANOS);
    await release();
    const usage = await h.gw.ctx.store.guardrails.memberUsage(workspace, member);
    expect(usage?.day).toBe(admittedCost(outcomes));
    expect(usage?.day ?? 0).toBeLessThanOrEqual(BUDGET_NANOS);
    const perKey = await Promise.all(keys.map((k) => h.gw.ctx.store.usage.get(k.hash)));
    expect(perKey.reduce((sum, u) => sum + (u?.total ?? 0), 0)).toBe(admittedCost(outcomes));
    expect(await h.gw.ctx.store.guardrails.memberHeld(workspace, member)).toBe(0);
  }, 90_000);
}

describe("video guardrail budgets on SQLite", () => {
  videoBudgetRace("sqlite");
});

describePostgres("video guardrail budgets on PostgreSQL", () => {
  videoBudgetRace("postgres", postgresDatabase);
});
