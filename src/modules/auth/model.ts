import { t } from "elysia";
import { ErrorBodySchema } from "../../http/openapi/error-responses";
import { VERIFIER_PATTERN } from "./pkce";

const Method = t.Union([t.Literal("S256"), t.Literal("plain")]);

export const CreateAuthCodeBody = t.Object(
  {
    callback_url: t.String({
      minLength: 1,
      maxLength: 2048,
      description: "Where the app receives the code: https, or http://localhost / http://127.0.0.1 on any port",
    }),
    code_challenge: t.Optional(t.String({ minLength: 1, maxLength: 128, description: "PKCE challenge (RFC 7636)" })),
    code_challenge_method: t.Optional(Method),
    limit: t.Optional(t.Number({ minimum: 0, description: "Credit limit of the key, USD" })),
    usage_limit_type: t.Optional(
      t.Union([t.Literal("daily"), t.Literal("weekly"), t.Literal("monthly")], { description: "When the limit resets; absent: never" }),
    ),
    expires_at: t.Optional(t.Nullable(t.String({ description: "When the key expires: UTC ISO 8601 date-time with seconds, in the future" }))),
    key_label: t.Optional(t.String({ minLength: 1, maxLength: 256, description: "Name of the key" })),
    workspace_id: t.Optional(t.String({ minLength: 1, description: "Workspace of the key (id or slug); default: the default workspace" })),
    user_id: t.Optional(t.String({ minLength: 1, description: "Management keys only: the user the code is for (default: the key's own user)" })),
  },
  { additionalProperties: false },
);

export const CreateAuthCodeResponse = t.Object({
  data: t.Object({
    id: t.String({ description: "The authorization code; exchange it at POST /api/v1/auth/keys within 10 minutes" }),
    app_id: t.Integer(),
    created_at: t.String(),
  }),
});

export const ExchangeAuthCodeBody = t.Object(
  {
    code: t.String({ minLength: 1, maxLength: 256 }),
    code_verifier: t.Optional(t.String({ pattern: VERIFIER_PATTERN, description: "PKCE verifier: 43 to 128 characters of A-Z a-z 0-9 - . _ ~" })),
    code_challenge_method: t.Optional(t.Nullable(Method)),
  },
  { additionalProperties: false },
);

export const ExchangeAuthCodeResponse = t.Object({
  key: t.String({ description: "The new API key, shown only this once" }),
  user_id: t.Nullable(t.String()),
});

export type CreateAuthCodeInput = typeof CreateAuthCodeBody.static;
export type ExchangeAuthCodeInput = typeof ExchangeAuthCodeBody.static;

export const ExchangeRefused = t.Object(ErrorBodySchema.properties, {
  description: "Refused, and the code used up: unknown, already used, expired, or a verifier or method that does not match the code's challenge",
});

export const CodeRefused = t.Object(ErrorBodySchema.properties, {
  description: "The key may not act for that user, or the user is not a member of the workspace",
});
