import type { AppContext } from "../../app-context";
import { anthropicInbound, MessagesRequestSchema } from "../../formats/anthropic-messages";
import { authPlugin } from "../../http/auth";
import { rendersErrorsWith } from "../../http/error-format";
import { routeModule } from "../../http/module";
import { countTokensResponses } from "./model";
import { countMessageTokens } from "./service";

const PREFIX = "/api/v1";

export function countTokensRoutes(ctx: AppContext) {
  return routeModule("count-tokens", PREFIX)
    .use(authPlugin(ctx.store, ctx.clock))
    .post("/messages/count_tokens", ({ body, principal, request }) => countMessageTokens(ctx, principal, body, request.headers), {
      auth: "inference",
      // errors in Anthropic's shape, as on /messages, those about the body included
      transform: rendersErrorsWith(anthropicInbound, `${PREFIX}/messages/count_tokens`),
      body: MessagesRequestSchema,
      detail: {
        tags: ["Inference"],
        summary: "Count the tokens of a message request (Anthropic format); accepts x-api-key",
        responses: countTokensResponses as never,
      },
    });
}
