// Endpoints in order: the first provider (OpenAI-shaped) keeps answering 503 to the create, so the
// job goes to the second (Replicate), completes there, and is charged at the second's prices.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { VIDEO_BYTES } from "../../support/video-mocks/mock-server";
import { runVeoJob, startTwoEndpointHarness, type TwoEndpointHarness } from "./setup";

let h: TwoEndpointHarness;
beforeAll(async () => {
  h = await startTwoEndpointHarness();
});
afterAll(() => h.close());

test("a 503 from the first endpoint sends the job to the second, which completes it", async () => {
  h.openai.createErrors = [503, 503, 503, 503, 503, 503];
  const done = await runVeoJob(h);
  expect(done).toMatchObject({ status: "completed", usage: { cost: 3.2, is_byok: false } });
  expect(h.openai.creates.length).toBe(1);
  expect([...h.replicate.predictions.values()].map((p) => p.model)).toEqual(["google/veo-3.1"]);
  const bytes = new Uint8Array(await (await h.gw.api(`/api/v1/videos/${done.id}/content`, { key: h.key })).arrayBuffer());
  expect(Buffer.compare(Buffer.from(bytes), Buffer.from(VIDEO_BYTES))).toBe(0);
});
