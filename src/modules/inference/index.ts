import type { Server } from "bun";
import type { AppContext } from "../../app-context";
import { anthropicInbound, MessagesRequestSchema } from "../../formats/anthropic-messages";
import { ChatRequestSchema, openaiChatInbound } from "../../formats/openai-chat";
import { openaiResponsesInbound, ResponsesRequestSchema } from "../../formats/openai-responses";
import { newGenerationId } from "../../gateway/ids";
import { runInference } from "../../gateway/inference";
import { authPlugin } from "../../http/auth";
import { rendersErrorsWith } from "../../http/error-format";
import { routeModule } from "../../http/module";
import { requestContext } from "../../http/request-context";
import { requestShape } from "../../http/request-shape";
import { ChatResult, inferenceResponses, MessagesResult, ResponsesResult } from "./model";

const tags = ["Inference"];
const PREFIX = "/api/v1";

/** Generations may take minutes: Bun's idle timeout must not cut the request. */
function longRequest(request: Request, server: Server<unknown> | null) {
  server?.timeout(request, 0);
  return requestShape(request);
}

export function inferenceRoutes(ctx: AppContext) {
  return (
    routeModule("inference", PREFIX)
      // before auth and validation, so that every answer of these routes names its generation;
      // each route's `transform: rendersErrorsWith(codec, path)` runs before auth too, so its errors take the codec's shape
      .derive(({ request }) => {
        const generationId = newGenerationId(ctx.clock());
        requestContext(request).generationId = generationId;
        return { generationId };
      })
      .use(authPlugin(ctx.store, ctx.clock))
      .post(
        "/chat/completions",
        ({ body, principal, request, server, generationId }) =>
          runInference(ctx, { format: "openai-chat", body, principal, http: longRequest(request, server), generationId }),
        {
          auth: "inference",
          transform: rendersErrorsWith(openaiChatInbound, `${PREFIX}/chat/completions`),
          body: ChatRequestSchema,
          detail: {
            tags,
            summary: "Create a chat completion (OpenAI Chat Completions format, streaming or not)",
            responses: inferenceResponses(ChatResult, "chat.completion.chunk events ending with data: [DONE]") as never,
          },
        },
      )
      .post(
        "/responses",
        ({ body, principal, request, server, generationId }) =>
          runInference(ctx, { format: "openai-responses", body, principal, http: longRequest(request, server), generationId }),
        {
          auth: "inference",
          transform: rendersErrorsWith(openaiResponsesInbound, `${PREFIX}/responses`),
          body: ResponsesRequestSchema,
          detail: {
            tags,
            summary: "Create a response (OpenAI Responses format, stateless)",
            responses: inferenceResponses(ResponsesResult, "Responses events, each with sequence_number") as never,
          },
        },
      )
      .post(
        "/messages",
        ({ body, principal, request, server, generationId }) =>
          runInference(ctx, { format: "anthropic-messages", body, principal, http: longRequest(request, server), generationId }),
        {
          auth: "inference",
          transform: rendersErrorsWith(anthropicInbound, `${PREFIX}/messages`),
          body: MessagesRequestSchema,
          detail: {
            tags,
            summary: "Create a message (Anthropic Messages format); accepts x-api-key",
            responses: inferenceResponses(MessagesResult, "Anthropic message events, each with an event: line", true) as never,
          },
        },
      )
  );
}
