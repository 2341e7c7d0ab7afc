import type { Server } from "bun";
import { t } from "elysia";
import type { AppContext } from "../../app-context";
import type { RequestShape } from "../../gateway/generation";
import type { Principal } from "../../http/principal";
import { requestShape } from "../../http/request-shape";
import type { SessionSource, Viewer } from "../../http/viewer";
import { createImages } from "../../modules/images/service";
import { rerank } from "../../modules/rerank/service";
import { createSpeech } from "../../modules/speech/service";
import { createTranscription } from "../../modules/transcriptions/service";
import { playgroundModels } from "../playground-models";
import { playgroundPrincipal } from "./playground-key";
import { consoleApiModule } from "./route-module";

const keyHash = t.String({ minLength: 1, description: "one of the viewer's own inference keys" });
const model = t.String({ minLength: 1, maxLength: 256 });

const ImagesBody = t.Object(
  {
    key_hash: keyHash,
    model,
    prompt: t.String({ maxLength: 32_000 }),
    n: t.Optional(t.Integer({ minimum: 1, maximum: 10 })),
    size: t.Optional(t.String({ maxLength: 32 })),
    quality: t.Optional(t.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);
const SpeechBody = t.Object(
  {
    key_hash: keyHash,
    model,
    input: t.String({ maxLength: 100_000 }),
    voice: t.Optional(t.String({ maxLength: 64 })),
    response_format: t.Optional(t.String({ maxLength: 16 })),
  },
  { additionalProperties: false },
);
const TranscriptionBody = t.Object(
  {
    key_hash: keyHash,
    model,
    input_audio: t.Object({ data: t.String(), format: t.String({ maxLength: 16 }) }, { additionalProperties: false }),
    language: t.Optional(t.String({ maxLength: 16 })),
  },
  { additionalProperties: false },
);
const RerankBody = t.Object(
  {
    key_hash: keyHash,
    model,
    query: t.String({ maxLength: 32_000 }),
    documents: t.Array(t.String({ maxLength: 32_000 }), { maxItems: 1000 }),
    top_n: t.Optional(t.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

/**
 * The Playground's media operations, each the gateway's own (POST /api/v1/images, /audio/speech,
 * /audio/transcriptions, /rerank) made with one of the viewer's keys as the chat Playground does:
 * the same validation, admission, fallback, charge and record, the answer as that route gives it
 * (the speech's audio streamed through), the generation's id in x-generation-id. The models
 * listing offers every kind with the choices its form shows.
 */
type Made = { body: unknown; headers: Record<string, string> };
type Call = { viewer: Viewer; body: { key_hash: string }; request: Request; server: Server<unknown> | null; set: { headers: Record<string, unknown> } };

/** Runs an operation for the key the body names (its answer's headers, x-generation-id among them, passed on); a slow upstream is not cut by Bun's idle timeout. */
function asKey<B extends { key_hash: string }>(
  ctx: AppContext,
  _schema: { static: B },
  operation: (principal: Principal, body: Omit<B, "key_hash">, http: RequestShape) => Promise<Made | Response>,
) {
  return async ({ viewer, body: { key_hash, ...body }, request, server, set }: Omit<Call, "body"> & { body: B }) => {
    const principal = await playgroundPrincipal(ctx, viewer, key_hash);
    server?.timeout(request, 0);
    const out = await operation(principal, body, requestShape(request));
    if (out instanceof Response) return out;
    Object.assign(set.headers, out.headers);
    return out.body;
  };
}

export function consolePlaygroundMediaRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-playground-media", ctx.store, sessions)
    .get("/playground/models", async () => ({ data: await playgroundModels(ctx) }), { auth: "session" })
    .post(
      "/playground/images",
      asKey(ctx, ImagesBody, (principal, body, http) => createImages(ctx, principal, body, http)),
      { auth: "session", body: ImagesBody },
    )
    .post(
      "/playground/speech",
      asKey(ctx, SpeechBody, (principal, body, http) => createSpeech(ctx, principal, body, http)),
      { auth: "session", body: SpeechBody },
    )
    .post(
      "/playground/transcriptions",
      // a JSON STTRequest: there is no upload to read
      asKey(ctx, TranscriptionBody, (principal, body, http) => createTranscription(ctx, principal, body, http, () => Promise.reject(new Error("no upload")))),
      { auth: "session", body: TranscriptionBody },
    )
    .post(
      "/playground/rerank",
      asKey(ctx, RerankBody, (principal, body, http) => rerank(ctx, principal, body, http)),
      { auth: "session", body: RerankBody },
    );
}
