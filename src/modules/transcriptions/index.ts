import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { jsonBodyReader } from "../../http/json-body";
import { routeModule } from "../../http/module";
import { requestShape } from "../../http/request-shape";
import type { TranscriptionJsonFields } from "../../media/transcription-body";
import { uploadRequest } from "../../media/transcription-body";
import { tooLarge } from "../../media/transcription-request";
import { TranscriptionJsonBody, TranscriptionResponse } from "./model";
import { createTranscription, uploadLimit } from "./service";

/** The route reads its own body (the app's JSON reader leaves this path alone): see `transcriptionBody`. */
export const TRANSCRIPTIONS_PATH = "/api/v1/audio/transcriptions";

const MB = 1024 * 1024;

/**
 * A multipart upload is left unread here: the route reads it after auth, measuring it as it
 * arrives. A JSON body is refused at once when its Content-Length is more than the largest file
 * any model takes, in base64, could make; otherwise it is read as every JSON body is.
 */
function transcriptionBody(ctx: AppContext) {
  return async ({ request }: { request: Request }, contentType: string): Promise<unknown> => {
    if (contentType === "multipart/form-data") return null;
    const limit = Math.ceil((uploadLimit(ctx) * 4) / 3);
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > limit) throw tooLarge("input_audio", Math.floor((limit * 3) / 4));
    return jsonBodyReader(limit, Math.round((limit / MB) * 100) / 100)({ request }, contentType);
  };
}

export function transcriptionRoutes(ctx: AppContext) {
  return routeModule("transcriptions", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .post(
      "/audio/transcriptions",
      async ({ body, principal, request, set }) => {
        const out = await createTranscription(ctx, principal, body as TranscriptionJsonFields | null | undefined, requestShape(request), (maxFile) =>
          uploadRequest(request, maxFile),
        );
        Object.assign(set.headers, out.headers);
        return out.body;
      },
      {
        auth: "inference",
        parse: [transcriptionBody(ctx)],
        // null: a multipart upload, read by the route itself
        body: t.Optional(TranscriptionJsonBody),
        response: TranscriptionResponse,
        detail: {
          tags: ["Audio"],
          summary:
            "Speech to text: a JSON body with base64 audio, or a multipart/form-data upload (file, model, language, response_format, temperature, timestamp_granularities[])",
        },
      },
    );
}
