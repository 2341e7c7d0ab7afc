import { t } from "elysia";

export const ActivityQuery = t.Object({
  date: t.Optional(t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" })),
  api_key_hash: t.Optional(t.String({ minLength: 1 })),
  user_id: t.Optional(t.String({ minLength: 1 })),
  // a one-value UnionEnum would be filled in by default when absent; a literal is not
  group_by: t.Optional(t.Literal("workspace")),
  workspace_id: t.Optional(t.String({ minLength: 1 })),
});

export const ActivityItem = t.Object({
  date: t.String(),
  model: t.String(),
  model_permaslug: t.String(),
  endpoint_id: t.String(),
  provider_name: t.String(),
  usage: t.Number(),
  byok_usage_inference: t.Number(),
  requests: t.Integer(),
  prompt_tokens: t.Integer(),
  completion_tokens: t.Integer(),
  reasoning_tokens: t.Integer(),
  workspace_id: t.Optional(t.String()),
});

export const ActivityResponse = t.Object({ data: t.Array(ActivityItem) });

export type ActivityInput = typeof ActivityQuery.static;
export type ActivityItemOut = typeof ActivityItem.static;
