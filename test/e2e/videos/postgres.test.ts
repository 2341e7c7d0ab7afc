// The video lifecycle on PostgreSQL: the job row, its compare-and-set moves, the reservation and
// the settled spend go through the PostgreSQL store and a job worker's own pool.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { createTestDatabase, describePostgres } from "../../support/postgres";
import { until } from "../../support/until";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { videoYaml } from "./setup";

describePostgres("videos on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let up: OpenAiVideoMock;
  let gw: TestGateway;
  beforeAll(async () => {
    db = await createTestDatabase();
    up = startOpenAiVideoMock({ bytes: 70_000 });
    gw = await startTestGateway({ yaml: videoYaml(up.url), env: { WORKERS: "1", DATABASE_URL: db.url, GATEWAY_SECRET_KEY: "c".repeat(64) } });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    up?.stop();
    await db?.drop();
  });

  test("submit, complete, download; the worst case held while it runs, the real cost charged after", async () => {
    const { key, hash } = await createInferenceKey(gw, { name: "pg video", limit: 10 });
    const res = await gw.api("/api/v1/videos", { method: "POST", key, json: { model: "openai/sora-2", prompt: "p", duration: 12, generate_audio: false } });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    // 12 s without audio: $1.20 + $0.01
    expect(await gw.ctx.store.reservations.held(hash)).toBe(1_210_000_000);
    const done = await until(
      "completed",
      async () => {
        const body = (await (await gw.api(`/api/v1/videos/${id}`, { key })).json()) as { status: string; usage?: { cost: number } };
        return body.status === "completed" ? body : undefined;
      },
      10_000,
    );
    expect(done.usage).toEqual({ cost: 1.21, is_byok: false } as never);
    expect(await gw.ctx.store.reservations.held(hash)).toBe(0);
    const bytes = new Uint8Array(await (await gw.api(`/api/v1/videos/${id}/content`, { key })).arrayBuffer());
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(up.bytes))).toBe(0);
    const keyData = (await (await gw.api(`/api/v1/keys/${hash}`)).json()) as { data: { usage: number } };
    expect(keyData.data.usage).toBe(1.21);
    // submitted, in_progress, completed: three compare-and-set moves
    expect((await gw.ctx.store.videoJobs.get(id))?.version).toBe(3);
  });
});
