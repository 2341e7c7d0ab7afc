import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { requestSource } from "../../http/change-origin";
import { routeModule } from "../../http/module";
import { CodeRefused, CreateAuthCodeBody, CreateAuthCodeResponse, ExchangeAuthCodeBody, ExchangeAuthCodeResponse, ExchangeRefused } from "./model";
import { codeUserOf, createAuthCode, exchangeAuthCode, renderAuthCode } from "./service";

/** The PKCE flow's API (OpenRouter's oAuth.createAuthCode and oAuth.exchangeAuthCodeForAPIKey); the consent page is in src/auth-web/. */
export function authCodeRoutes(ctx: AppContext) {
  const exchange = routeModule("auth-exchange", "/api/v1").post(
    "/auth/keys",
    ({ body, request, server }) => exchangeAuthCode(ctx, requestSource(request, server), body),
    {
      body: ExchangeAuthCodeBody,
      response: { 200: ExchangeAuthCodeResponse, 403: ExchangeRefused },
      detail: {
        tags: ["OAuth"],
        summary: "Exchange an authorization code (and its PKCE verifier) for a user-controlled API key",
        description: "No key needed. A code works once and for 10 minutes; any failed redemption (wrong verifier, wrong method, expired) uses it up (403).",
      },
    },
  );
  const create = routeModule("auth-codes", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .post(
      "/auth/keys/code",
      async ({ principal, body }) => {
        const { user_id, ...request } = body;
        const { code, record } = await createAuthCode(ctx, await codeUserOf(ctx, principal, user_id), request);
        return renderAuthCode(code, record);
      },
      {
        auth: "any",
        body: CreateAuthCodeBody,
        response: { 200: CreateAuthCodeResponse, 403: CodeRefused },
        detail: {
          tags: ["OAuth"],
          summary: "Create an authorization code for a user, as the consent page does",
          description: "With a key of the user who authorizes, or a management key acting for the user named in `user_id`.",
        },
      },
    );
  return routeModule("auth").use(exchange).use(create);
}
