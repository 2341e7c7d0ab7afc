/**
 * Gemini Developer API Veo mock: `POST /v1beta/models/{model}:predictLongRunning`
 * answers `{name: "models/{model}/operations/{id}"}`; `GET /v1beta/{name}` walks the script (no
 * `done` until finished, then `response.generateVideoResponse` or `error`); the sample's
 * `…/files/{id}:download?alt=media` wants the API key and redirects to the (expiring) bytes.
 * Errors are `{error:{code, message, status}}`. Auth: `x-goog-api-key`.
 */
import { type MockServer, startMockServer, VIDEO_BYTES } from "./mock-server";

export type VeoJobScript = {
  /** polls answered without `done` before the outcome */
  pendingPolls: number;
  outcome: { kind: "video"; samples?: number; ttlMs?: number } | { kind: "error"; code: number; message: string } | { kind: "filtered"; reasons: string[] };
};

type Operation = { name: string; script: VeoJobScript; polls: number };

export type GeminiVeoMock = MockServer & { key: string; baseUrl: string; nextJob: VeoJobScript; operations: Map<string, Operation> };

const RPC_STATUS: Record<number, string> = { 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED", 8: "RESOURCE_EXHAUSTED", 13: "INTERNAL" };

export function startGeminiVeoMock(key = "AIza-test-key"): GeminiVeoMock {
  const operations = new Map<string, Operation>();
  const downloads = new Map<string, string>();
  const mock: GeminiVeoMock = Object.assign(
    startMockServer((request, received) => {
      if (request.headers.get("x-goog-api-key") !== key)
        return Response.json({ error: { code: 403, message: "Method doesn't allow unregistered callers.", status: "PERMISSION_DENIED" } }, { status: 403 });
      const create = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(received.path);
      if (request.method === "POST" && create) {
        const name = `models/${create[1]}/operations/${crypto.randomUUID().slice(0, 12)}`;
        operations.set(name, { name, script: mock.nextJob, polls: 0 });
        return Response.json({ name });
      }
      const download = /^\/v1beta\/files\/([^/:]+):download$/.exec(received.path);
      if (request.method === "GET" && download) {
        const target = downloads.get(download[1]!);
        return target
          ? Response.redirect(target, 302)
          : Response.json({ error: { code: 404, message: "File not found.", status: "NOT_FOUND" } }, { status: 404 });
      }
      const operation = operations.get(received.path.replace(/^\/v1beta\//, ""));
      if (request.method === "GET" && operation) return Response.json(render(operation));
      return Response.json({ error: { code: 404, message: `Requested entity was not found.`, status: "NOT_FOUND" } }, { status: 404 });
    }),
    { key, baseUrl: "", nextJob: { pendingPolls: 1, outcome: { kind: "video" } } as VeoJobScript, operations },
  );
  mock.baseUrl = `${mock.url}/v1beta`;

  function render(operation: Operation) {
    const metadata = { "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningMetadata" };
    if (operation.polls++ < operation.script.pendingPolls) return { name: operation.name, metadata };
    const outcome = operation.script.outcome;
    if (outcome.kind === "error")
      return {
        name: operation.name,
        metadata,
        done: true,
        error: { code: outcome.code, message: outcome.message, status: RPC_STATUS[outcome.code] ?? "UNKNOWN" },
      };
    const response = (generateVideoResponse: unknown) => ({
      name: operation.name,
      metadata,
      done: true,
      response: { "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse", generateVideoResponse },
    });
    if (outcome.kind === "filtered") return response({ raiMediaFilteredCount: outcome.reasons.length, raiMediaFilteredReasons: outcome.reasons });
    const samples = Array.from({ length: outcome.samples ?? 1 }, () => {
      const id = crypto.randomUUID().slice(0, 12);
      downloads.set(id, mock.serveFile(VIDEO_BYTES, "video/mp4", outcome.ttlMs));
      return { video: { uri: `${mock.baseUrl}/files/${id}:download?alt=media` } };
    });
    return response({ generatedSamples: samples });
  }
  return mock;
}
