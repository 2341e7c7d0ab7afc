import { t } from "elysia";

export const ClearCacheQuery = t.Object({
  workspace_id: t.Optional(
    t.String({ minLength: 1, maxLength: 200, description: "empty only this workspace's entries (id or slug); absent: every workspace's" }),
  ),
});

export const ClearCacheResponse = t.Object({ deleted: t.Integer({ minimum: 0, description: "entries removed, expired or not" }) });
