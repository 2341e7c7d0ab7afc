/**
 * A loopback OpenAI-shaped Videos API: multipart create, retrieve walking
 * queued → in_progress → completed (or failed), and the MP4 bytes at /content. Told per test to
 * fail creates, fail the generation, hang in progress, or be slow.
 */
export type OpenAiVideoMode = { kind: "ok" } | { kind: "fail"; code: string; message: string } | { kind: "hang" };

export type OpenAiVideoMock = {
  url: string;
  /** the form fields of every create, in order */
  creates: Array<Record<string, string>>;
  /** retrieve calls by video id */
  retrieves: Map<string, number>;
  contentDownloads: number;
  /** what the next videos do */
  mode: OpenAiVideoMode;
  /** retrieves answering queued, then in_progress, before the outcome */
  queuedPolls: number;
  progressPolls: number;
  /** HTTP statuses the next creates answer with before they succeed (e.g. [503] for one transient failure) */
  createErrors: number[];
  /** the Retry-After (seconds) those error answers carry, if any */
  createRetryAfter: number | undefined;
  /** delay of every answer, ms */
  delayMs: number;
  /** more delay of each create's answer, ms, counted after the create was recorded in `creates` */
  createDelayMs: number;
  /** the bytes every completed video's content returns */
  bytes: Uint8Array;
  stop(): void;
};

export function startOpenAiVideoMock(opts: { bytes?: number } = {}): OpenAiVideoMock {
  const bytes = new Uint8Array(opts.bytes ?? 300_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) % 251;
  const videos = new Map<string, { mode: OpenAiVideoMode; seconds: string; size: string; model: string; prompt: string }>();
  let next = 0;
  const mock: OpenAiVideoMock = {
    url: "",
    creates: [],
    retrieves: new Map(),
    contentDownloads: 0,
    mode: { kind: "ok" },
    queuedPolls: 1,
    progressPolls: 1,
    createErrors: [],
    createRetryAfter: undefined,
    delayMs: 0,
    createDelayMs: 0,
    bytes,
    stop: () => void server.stop(true),
  };
  const json = (body: unknown, status = 200) => Response.json(body, { status });
  const videoObject = (id: string, status: string, error: { code: string; message: string } | null = null) => {
    const v = videos.get(id)!;
    return {
      id,
      object: "video",
      model: v.model,
      status,
      progress: status === "completed" ? 100 : status === "in_progress" ? 50 : 0,
      created_at: 1_700_000_000,
      completed_at: status === "completed" ? 1_700_000_060 : null,
      expires_at: null,
      prompt: v.prompt,
      seconds: v.seconds,
      size: v.size,
      remixed_from_video_id: null,
      error,
    };
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (mock.delayMs > 0) await Bun.sleep(mock.delayMs);
      if (req.headers.get("authorization") !== "Bearer video-key") return json({ error: { message: "bad key", type: "invalid_request_error" } }, 401);
      const path = new URL(req.url).pathname;
      if (req.method === "POST" && path === "/v1/videos") {
        const form = await req.formData();
        const fields = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
        mock.creates.push(fields);
        if (mock.createDelayMs > 0) await Bun.sleep(mock.createDelayMs);
        const status = mock.createErrors.shift();
        if (status !== undefined) {
          const headers = mock.createRetryAfter === undefined ? undefined : { "Retry-After": String(mock.createRetryAfter) };
          return Response.json({ error: { message: `create failed with ${status}`, type: "server_error" } }, { status, headers });
        }
        const id = `video_${++next}`;
        videos.set(id, {
          mode: mock.mode,
          seconds: fields.seconds ?? "4",
          size: fields.size ?? "720x1280",
          model: fields.model ?? "sora-2",
          prompt: fields.prompt ?? "",
        });
        return json(videoObject(id, "queued"));
      }
      const content = /^\/v1\/videos\/([^/]+)\/content$/.exec(path);
      if (req.method === "GET" && content) {
        mock.contentDownloads++;
        return new Response(bytes, { headers: { "Content-Type": "video/mp4" } });
      }
      const retrieve = /^\/v1\/videos\/([^/]+)$/.exec(path);
      if (req.method === "GET" && retrieve) {
        const id = retrieve[1]!;
        const v = videos.get(id);
        if (!v) return json({ error: { message: "no such video", type: "invalid_request_error" } }, 404);
        const n = (mock.retrieves.get(id) ?? 0) + 1;
        mock.retrieves.set(id, n);
        if (n <= mock.queuedPolls) return json(videoObject(id, "queued"));
        if (n <= mock.queuedPolls + mock.progressPolls || v.mode.kind === "hang") return json(videoObject(id, "in_progress"));
        if (v.mode.kind === "fail") return json(videoObject(id, "failed", { code: v.mode.code, message: v.mode.message }));
        return json(videoObject(id, "completed"));
      }
      return json({ error: { message: `no route ${req.method} ${path}` } }, 404);
    },
  });
  mock.url = `http://127.0.0.1:${server.port}/v1`;
  return mock;
}
