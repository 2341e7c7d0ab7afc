// Submissions of one video job that overlap (issue 38: at least once). The upstreams take no
// idempotency key, so a submission sent again while the first one's answer was still to come (its
// lease lapsed) leaves the upstream with two jobs: the reference stored first is followed, and the
// submission answered later stores nothing and names both upstream jobs in a warn line. The same
// goes for a submission answered after the job's deadline failed it. The job kinds run here in the
// test's own process (the gateway has no job workers), so the two calls can be ordered.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createRouterState } from "../../../src/gateway/routing/router-state";
import { createLogger } from "../../../src/logger";
import type { JobRecord } from "../../../src/store/job-store";
import { logOnlyTelemetry } from "../../../src/telemetry/telemetry";
import { videoAdapters } from "../../../src/videos/adapters";
import { videoDeadlineKind } from "../../../src/videos/jobs/video-deadline";
import type { VideoJobDeps } from "../../../src/videos/jobs/video-job-deps";
import { videoSubmitKind } from "../../../src/videos/jobs/video-submit";
import { videoStorageOf } from "../../../src/videos/storage/video-storage";
import { buildVideoCatalog } from "../../../src/videos/video-catalog";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { until } from "../../support/until";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { videoYaml } from "./setup";

let up: OpenAiVideoMock;
let gw: TestGateway;
let key: string;
let deps: VideoJobDeps;
const warnings: Array<{ msg: string } & Record<string, unknown>> = [];

beforeAll(async () => {
  up = startOpenAiVideoMock();
  // WORKERS 0 (the test gateway's default): nothing runs the stored jobs but this test
  gw = await startTestGateway({ yaml: videoYaml(up.url).replace("deadline_minutes: 0.05", "deadline_minutes: 1") });
  key = (await createInferenceKey(gw, { name: "duplicates" })).key;
  const config = gw.ctx.config;
  const logger = createLogger("warn", (line) => warnings.push(JSON.parse(line)));
  deps = {
    store: gw.ctx.store,
    config,
    catalog: buildVideoCatalog(config),
    adapters: videoAdapters({ config }),
    storage: videoStorageOf(config),
    logger,
    clock: Date.now,
    router: createRouterState(config, Date.now),
    telemetry: logOnlyTelemetry(logger),
  };
});

afterAll(async () => {
  await gw.close();
  up.stop();
});

/** A stored video job and its submission and deadline jobs, as the worker would lease them. */
async function videoJob(prompt: string): Promise<{ id: string; submission: JobRecord; deadline: JobRecord }> {
  const res = await gw.api("/api/v1/videos", { method: "POST", key, json: { model: "openai/sora-2", prompt, duration: 4 } });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  const jobs = await gw.ctx.store.jobs.list({}, 0, 100);
  const of = (kind: string) => jobs.find((j) => j.kind === kind && (j.payload as { video_id: string }).video_id === id)!;
  return { id, submission: of("video.submit"), deadline: of("video.deadline") };
}

const run = (kind: { run(payload: unknown, run: { job: JobRecord; signal: AbortSignal }): Promise<void> }, job: JobRecord) =>
  kind.run(job.payload, { job, signal: new AbortController().signal });

/** Starts a submission whose create the upstream answers only after `answerAfterMs`; resolves once that create has arrived, with the submission's end. */
async function slowSubmission(submission: JobRecord, answerAfterMs: number): Promise<{ answered: Promise<void> }> {
  const creates = up.creates.length;
  up.createDelayMs = answerAfterMs;
  const answered = run(videoSubmitKind(deps), submission);
  await until("the slow create arrived", () => (up.creates.length === creates + 1 ? true : undefined), 5_000);
  up.createDelayMs = 0;
  // wrapped: an async function that returned the promise itself would wait for it
  return { answered };
}

test("two overlapping submissions: the upstream holds two jobs, the first stored is followed, a warn line names both", async () => {
  warnings.length = 0;
  const { id, submission } = await videoJob("twice");
  const first = (await slowSubmission(submission, 400)).answered;
  // sent again (the first one's lease lapsed) and answered at once: the upstream's video_1
  await run(videoSubmitKind(deps), { ...submission, attempts: 2 });
  expect((await gw.ctx.store.videoJobs.get(id))?.upstreamRef).toEqual({ id: "video_1" });
  // the first submission's answer comes later: video_2, not followed
  await first;
  expect(up.creates.map((c) => c.prompt)).toEqual(["twice", "twice"]);
  const job = await gw.ctx.store.videoJobs.get(id);
  expect({ status: job?.status, endpointId: job?.endpointId, upstreamRef: job?.upstreamRef }).toEqual({
    status: "pending",
    endpointId: "openai/sora-2",
    upstreamRef: { id: "video_1" },
  });
  expect((await gw.ctx.store.jobs.list({ kind: "video.poll" }, 0, 10)).map((j) => j.payload)).toEqual([{ video_id: id }]);
  expect(warnings.map(({ time: _t, ...w }) => w)).toEqual([
    {
      level: "warn",
      msg: "video job submitted twice: the upstream holds two jobs; only the first stored is followed, charged and announced",
      video: id,
      status: "pending",
      unfollowed_endpoint: "openai/sora-2",
      unfollowed_upstream_id: "video_2",
      followed_endpoint: "openai/sora-2",
      followed_upstream_id: "video_1",
    },
  ]);
});

test("a submission answered after the deadline failed its job stores nothing; a warn line names its upstream job", async () => {
  warnings.length = 0;
  const { id, submission, deadline } = await videoJob("too late");
  const { answered } = await slowSubmission(submission, 400);
  // the worst order: the submission is answered while the deadline settles the job (after its
  // fence, before its status), so without the fence its reference would be stored on a settled job
  const store = gw.ctx.store;
  const generations = {
    ...store.generations,
    commit: async (batch: Parameters<typeof store.generations.commit>[0]) => (await answered, store.generations.commit(batch)),
  };
  await run(videoDeadlineKind({ ...deps, store: { ...store, generations } }), deadline);
  const failed = await gw.ctx.store.videoJobs.get(id);
  expect({ status: failed?.status, error: failed?.errorMessage }).toEqual({
    status: "failed",
    error: "The video was not accepted by any provider before its deadline",
  });
  await answered;
  expect(await gw.ctx.store.videoJobs.get(id)).toEqual(failed);
  expect(warnings.map(({ time: _t, ...w }) => w)).toEqual([
    {
      level: "warn",
      msg: "video job accepted upstream after it had been given up: that upstream job is not followed",
      video: id,
      status: "pending",
      unfollowed_endpoint: "openai/sora-2",
      unfollowed_upstream_id: "video_3",
    },
  ]);
});
