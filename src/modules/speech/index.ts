import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { requestShape } from "../../http/request-shape";
import { SpeechBody } from "./model";
import { createSpeech } from "./service";

export function speechRoutes(ctx: AppContext) {
  return routeModule("speech", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .post("/audio/speech", ({ body, principal, request }) => createSpeech(ctx, principal, body, requestShape(request)), {
      auth: "inference",
      body: SpeechBody,
      detail: {
        tags: ["Audio"],
        summary: "Text to speech: the audio streamed as the provider makes it",
        responses: { 200: { description: "The audio", content: { "audio/*": { schema: { type: "string", format: "binary" } } } } } as never,
      },
    });
}
