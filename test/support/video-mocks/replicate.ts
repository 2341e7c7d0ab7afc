/**
 * Replicate predictions API mock: `POST /v1/models/{owner}/{name}/predictions` or
 * `POST /v1/predictions` ({version, input}) answer 201 with a `starting` prediction and its `urls`;
 * `GET /v1/predictions/{id}` walks the script; `POST …/cancel` cancels. Errors are problem JSON
 * `{title, detail, status}`. Auth: `Authorization: Bearer <key>`.
 */
import { type MockServer, startMockServer, VIDEO_BYTES } from "./mock-server";

export type ReplicateJobScript = {
  /** statuses `GET` reports, one per poll; the last repeats */
  statuses: string[];
  error?: string;
  /** output URL lifetime (Replicate deletes API outputs after an hour) */
  ttlMs?: number;
  outputShape?: "string" | "array";
};

type Prediction = { id: string; model: string; version: string; input: unknown; script: ReplicateJobScript; polls: number; canceled: boolean; output?: string };

export type ReplicateMock = MockServer & { key: string; baseUrl: string; nextJob: ReplicateJobScript; predictions: Map<string, Prediction> };

export function startReplicateMock(key = "r8_test_key"): ReplicateMock {
  const predictions = new Map<string, Prediction>();
  const mock: ReplicateMock = Object.assign(
    startMockServer((request, received) => {
      if (request.headers.get("authorization") !== `Bearer ${key}`)
        return Response.json({ title: "Unauthenticated", detail: "You did not pass a valid authentication token", status: 401 }, { status: 401 });
      const byModel = /^\/v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(received.path);
      if (request.method === "POST" && (byModel || received.path === "/v1/predictions")) return create(byModel?.[1], received.body);
      const one = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(received.path);
      const prediction = one ? predictions.get(one[1]!) : undefined;
      if (!prediction) return Response.json({ title: "Not found", detail: "The requested resource could not be found", status: 404 }, { status: 404 });
      if (request.method === "POST" && one?.[2]) {
        prediction.canceled = true;
        return Response.json(render(prediction, "canceled"));
      }
      if (request.method === "GET" && !one?.[2]) return Response.json(render(prediction, advance(prediction)));
      return Response.json({ title: "Method not allowed", status: 405 }, { status: 405 });
    }),
    { key, baseUrl: "", nextJob: { statuses: ["starting", "processing", "succeeded"] } as ReplicateJobScript, predictions },
  );
  mock.baseUrl = `${mock.url}/v1`;

  function create(model: string | undefined, body: unknown) {
    const { input, version } = (body ?? {}) as { input?: unknown; version?: string };
    if (input === undefined || (model === undefined && !version))
      return Response.json({ title: "Invalid input", detail: "input: input is required", status: 422 }, { status: 422 });
    const prediction: Prediction = {
      id: crypto.randomUUID().replace(/-/g, "").slice(0, 26),
      model: model ?? "community/model",
      version: version ?? "official",
      input,
      script: mock.nextJob,
      polls: 0,
      canceled: false,
    };
    predictions.set(prediction.id, prediction);
    return Response.json(render(prediction, "starting"), { status: 201 });
  }
  function advance(prediction: Prediction): string {
    if (prediction.canceled) return "canceled";
    const statuses = prediction.script.statuses;
    return statuses[Math.min(prediction.polls++, statuses.length - 1)]!;
  }
  function render(prediction: Prediction, status: string) {
    const succeeded = status === "succeeded";
    if (succeeded && !prediction.output) prediction.output = mock.serveFile(VIDEO_BYTES, "video/mp4", prediction.script.ttlMs);
    const output = succeeded ? (prediction.script.outputShape === "array" ? [prediction.output] : prediction.output) : null;
    const get = `${mock.baseUrl}/predictions/${prediction.id}`;
    return {
      id: prediction.id,
      model: prediction.model,
      version: prediction.version,
      input: prediction.input,
      logs: "",
      output,
      data_removed: false,
      error: status === "failed" ? (prediction.script.error ?? "Prediction failed") : null,
      status,
      created_at: "2026-11-23T12:00:00.000Z",
      started_at: status === "starting" ? null : "2026-11-23T12:00:01.000Z",
      completed_at: ["succeeded", "failed", "canceled", "aborted"].includes(status) ? "2026-11-23T12:00:41.000Z" : null,
      metrics: succeeded ? { predict_time: 40.1, total_time: 41.0 } : {},
      urls: { get, cancel: `${get}/cancel`, stream: `https://stream.replicate.com/v1/files/${prediction.id}`, web: `https://replicate.com/p/${prediction.id}` },
    };
  }
  return mock;
}
