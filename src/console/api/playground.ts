import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { newGenerationId } from "../../gateway/ids";
import { runInference } from "../../gateway/inference";
import { requestContext } from "../../http/request-context";
import { requestShape } from "../../http/request-shape";
import type { SessionSource } from "../../http/viewer";
import { playgroundPrincipal } from "./playground-key";
import { consoleApiModule } from "./route-module";

const PlaygroundBody = t.Object(
  {
    key_hash: t.String({ minLength: 1, description: "one of the viewer's own inference keys" }),
    model: t.String({ minLength: 1, maxLength: 256 }),
    prompt: t.String({ minLength: 1, maxLength: 100_000 }),
    max_tokens: t.Optional(t.Integer({ minimum: 1, maximum: 100_000 })),
  },
  { additionalProperties: false },
);

/**
 * The Playground: a prompt sent as a streamed chat completion with one of the viewer's keys, as
 * a client holding that key would send it (its limits, rate limits and workspace apply, and the
 * generation is the key's). The console never holds a raw key, so the request is made for the key
 * here, in the same lifecycle as POST /api/v1/chat/completions; its SSE comes back as is, with
 * the generation's id in x-generation-id.
 */
export function consolePlaygroundRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-playground", ctx.store, sessions).post(
    "/playground",
    async ({ viewer, body, request, server }) => {
      const principal = await playgroundPrincipal(ctx, viewer, body.key_hash);
      const generationId = newGenerationId(ctx.clock());
      requestContext(request).generationId = generationId;
      // a long answer must not be cut by Bun's idle timeout
      server?.timeout(request, 0);
      return runInference(ctx, {
        format: "openai-chat",
        body: {
          model: body.model,
          messages: [{ role: "user", content: body.prompt }],
          stream: true,
          stream_options: { include_usage: true },
          ...(body.max_tokens === undefined ? {} : { max_tokens: body.max_tokens }),
        },
        principal,
        http: requestShape(request),
        generationId,
      });
    },
    { auth: "session", body: PlaygroundBody },
  );
}
