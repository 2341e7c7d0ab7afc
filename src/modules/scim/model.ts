import { t } from "elysia";

export const CreateScimTokenBody = t.Object({ name: t.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const ScimTokenData = t.Object({ id: t.String(), name: t.String(), created_at: t.String() });

export const CreateScimTokenResponse = t.Object({ data: ScimTokenData, token: t.String({ description: "the raw token, shown once" }) });
export const ListScimTokensResponse = t.Object({ data: t.Array(ScimTokenData) });
export const ScimTokenParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100 }) });
export const DeletedResponse = t.Object({ deleted: t.Literal(true) });

export type ScimTokenOut = typeof ScimTokenData.static;
