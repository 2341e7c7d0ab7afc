import { t } from "elysia";

export const PageQuery = t.Object({
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
});

export const CreateUserBody = t.Object(
  {
    id: t.Optional(t.String({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9._@:+-]+$" })),
    email: t.Optional(t.Nullable(t.String({ minLength: 3, maxLength: 320, pattern: "^[^@\\s]+@[^@\\s]+$" }))),
    name: t.Optional(t.Nullable(t.String({ minLength: 1, maxLength: 256 }))),
    role: t.Union([t.Literal("admin"), t.Literal("member")]),
  },
  { additionalProperties: false },
);

export const UserData = t.Object({
  id: t.String(),
  email: t.Nullable(t.String()),
  name: t.Nullable(t.String()),
  first_name: t.Nullable(t.String()),
  last_name: t.Nullable(t.String()),
  role: t.String(),
  created_at: t.String(),
});

export const UserIdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 128 }) });
export const RemovedUserResponse = t.Object({ deleted: t.Literal(true), revoked_keys: t.Integer({ description: "keys of the user that stopped working" }) });
export const RevokedKeysResponse = t.Object({ revoked_count: t.Integer() });

export const UserResponse = t.Object({ data: UserData });
export const ListUsersResponse = t.Object({ data: t.Array(UserData), total_count: t.Integer() });

export type CreateUserInput = typeof CreateUserBody.static;
export type PageInput = typeof PageQuery.static;
export type UserDataOut = typeof UserData.static;
