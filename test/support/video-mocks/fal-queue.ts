/**
 * fal queue API mock: submit on `/{owner}/{alias}[/subpath]`, status/result/cancel
 * under `/{owner}/{alias}/requests/{id}` (without the subpath), 202 while queued/running and 200
 * once COMPLETED, a failed request COMPLETED with a 4xx/5xx result carrying `detail`, `error_type`
 * and `X-Fal-Error-Type`. Auth: `Authorization: Key <key>`.
 */
import { type MockServer, startMockServer, VIDEO_BYTES } from "./mock-server";

export type FalJobScript = {
  /** statuses the status endpoint reports, one per poll; the last repeats */
  statuses: string[];
  result: { kind: "video"; ttlMs?: number } | { kind: "error"; status: number; errorType?: string; detail: unknown };
};

type FalJob = { id: string; app: string; script: FalJobScript; polls: number; cancelled: boolean };

export type FalQueueMock = MockServer & { key: string; nextJob: FalJobScript; jobs: Map<string, FalJob> };

export function startFalQueueMock(key = "fal-test-key"): FalQueueMock {
  const jobs = new Map<string, FalJob>();
  const mock: FalQueueMock = Object.assign(
    startMockServer((request, received) => {
      if (request.headers.get("authorization") !== `Key ${key}`) return Response.json({ detail: "Unauthorized" }, { status: 401 });
      const segments = received.path.split("/").filter(Boolean);
      const requestsAt = segments.indexOf("requests");
      if (request.method === "POST" && requestsAt < 0) return submit(segments);
      const job = jobs.get(segments[requestsAt + 1] ?? "");
      if (!job) return Response.json({ detail: "Request not found" }, { status: 404 });
      const tail = segments.slice(requestsAt + 2).join("/");
      if (request.method === "GET" && tail === "status") return status(job);
      if (request.method === "GET" && tail === "") return result(job);
      if (request.method === "PUT" && tail === "cancel") return cancel(job);
      return Response.json({ detail: "Not Found" }, { status: 404 });
    }),
    { key, nextJob: { statuses: ["IN_QUEUE", "IN_PROGRESS", "COMPLETED"], result: { kind: "video" } } as FalJobScript, jobs },
  );

  const urlsOf = (job: FalJob) => {
    const requests = `${mock.url}/${job.app}/requests/${job.id}`;
    return { request_id: job.id, response_url: requests, status_url: `${requests}/status`, cancel_url: `${requests}/cancel` };
  };
  const current = (job: FalJob) => job.script.statuses[Math.min(job.polls, job.script.statuses.length - 1)]!;

  function submit(segments: string[]) {
    const job: FalJob = { id: crypto.randomUUID(), app: segments.slice(0, 2).join("/"), script: mock.nextJob, polls: 0, cancelled: false };
    jobs.set(job.id, job);
    return Response.json({ ...urlsOf(job), queue_position: 0, gateway_request_id: job.id });
  }
  function status(job: FalJob) {
    const now = current(job);
    job.polls++;
    const body = {
      status: now,
      ...urlsOf(job),
      ...(now === "IN_QUEUE" ? { queue_position: 0 } : {}),
      logs: null,
      ...(now === "COMPLETED" ? { metrics: { inference_time: 41.2 } } : {}),
    };
    return Response.json(body, { status: now === "COMPLETED" ? 200 : 202 });
  }
  function result(job: FalJob) {
    if (current(job) !== "COMPLETED" && job.polls < job.script.statuses.length)
      return Response.json({ detail: "Request is still in progress" }, { status: 400 });
    const outcome = job.script.result;
    if (outcome.kind === "error") {
      const headers: Record<string, string> = outcome.errorType ? { "x-fal-error-type": outcome.errorType } : {};
      return Response.json({ detail: outcome.detail, ...(outcome.errorType ? { error_type: outcome.errorType } : {}) }, { status: outcome.status, headers });
    }
    const url = mock.serveFile(VIDEO_BYTES, "video/mp4", outcome.ttlMs);
    return Response.json({ video: { url, content_type: "video/mp4", file_name: "output.mp4", file_size: VIDEO_BYTES.length }, seed: 42 });
  }
  function cancel(job: FalJob) {
    if (current(job) !== "IN_QUEUE") return Response.json({ detail: "Request is already being processed" }, { status: 400 });
    job.cancelled = true;
    return Response.json({ status: "CANCELLATION_REQUESTED" }, { status: 202 });
  }
  return mock;
}
