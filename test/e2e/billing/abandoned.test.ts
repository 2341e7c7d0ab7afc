// A request whose answer fails unexpectedly after planning (a bug, not an upstream failure) must
// not keep its spending reservation: the instance renews its own reservations while it runs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type RequestFacts, settleAbandoned } from "../../../src/gateway/record";
import { reservation } from "../../store/contract/fixtures";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

test("an abandoned request is recorded as an error once and its reservation released", async () => {
  const { hash } = await createInferenceKey(gw, { limit: 1 });
  const key = (await gw.ctx.store.keys.get(hash))!;
  const workspace = (await gw.ctx.store.workspaces.find(key.workspaceId))!;
  expect(await gw.ctx.store.reservations.reserve(reservation("gen-abandoned", hash, 1_000_000_000, 5000))).toBeNull();
  expect(await gw.ctx.store.reservations.held(hash)).toBe(5000);
  const facts: RequestFacts = {
    id: "gen-abandoned",
    route: "/api/v1/chat/completions",
    startedAt: gw.ctx.clock(),
    principal: { key, workspace, user: null, isManagement: false },
    headers: new Headers(),
    apiType: "completions",
    requestedModel: "t/m",
    streamed: true,
    sessionId: null,
    externalUser: null,
    presetId: null,
    trace: null,
    reservationId: "gen-abandoned",
    rateLimit: null,
  };
  await settleAbandoned(gw.ctx, facts, "Internal error while streaming the answer");
  expect(await gw.ctx.store.reservations.held(hash)).toBe(0);
  expect(await gw.ctx.store.reservations.openCount()).toBe(0);
  const record = (await gw.ctx.store.generations.get("gen-abandoned"))!;
  expect(record).toMatchObject({ finishReason: "error", errorMessage: "Internal error while streaming the answer", costNanos: 0 });
  // already recorded: a second call changes nothing
  await settleAbandoned(gw.ctx, facts, "again");
  expect((await gw.ctx.store.generations.get("gen-abandoned"))!.errorMessage).toBe("Internal error while streaming the answer");
});
