import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { budgetFigures } from "../../billing/budgets";
import { nanosToUsd } from "../../billing/money";
import type { SessionSource, Viewer } from "../../http/viewer";
import { listUsers } from "../../modules/organization/service";
import { deleteBudget, listBudgets, setBudget } from "../../modules/workspaces/budgets";
import { addMembers, listMembers, removeMembers } from "../../modules/workspaces/members";
import {
  BudgetParams,
  CreateWorkspaceBody,
  DeleteWorkspaceQuery,
  PutBudgetBody,
  UpdateWorkspaceBody,
  UserIdsBody,
  WorkspaceParams,
} from "../../modules/workspaces/model";
import { createWorkspace, deleteWorkspace, findWorkspace, listWorkspaces, updateWorkspace } from "../../modules/workspaces/service";
import { rotateWebhookSecret } from "../../modules/workspaces/webhook-secret";
import { memberGuardrails } from "../guardrail-names";
import { requireWorkspace } from "../permissions";
import { consoleApiModule } from "./route-module";

/** the workspace a reference names, when the viewer sees it (a member: theirs only) */
async function visibleWorkspace(ctx: AppContext, viewer: Viewer, ref: string) {
  const ws = await findWorkspace(ctx.store, ref);
  requireWorkspace(viewer, ws.id, "id");
  return ws;
}

/**
 * Workspaces, their members, budgets and webhook settings, through the services of
 * /api/v1/workspaces. Managers change them; a member reads the workspaces they belong to.
 */
export function consoleWorkspaceRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-workspaces", ctx.store, sessions)
    .get(
      "/workspaces",
      async ({ viewer }) => {
        const all = await listWorkspaces(ctx, { limit: 1000 });
        return { data: all.data.filter((w) => viewer.manages || viewer.memberOf.includes(w.id)) };
      },
      { auth: "session" },
    )
    .post(
      "/workspaces",
      async ({ viewer, origin, body, set }) => {
        set.status = 201;
        return { data: await createWorkspace(ctx, origin, viewer.userId, body) };
      },
      { auth: "session:manager", body: CreateWorkspaceBody },
    )
    .patch(
      "/workspaces/:id",
      async ({ origin, params, body }) => {
        return { data: await updateWorkspace(ctx, origin, params.id, body) };
      },
      { auth: "session:manager", params: WorkspaceParams, body: UpdateWorkspaceBody },
    )
    .delete(
      "/workspaces/:id",
      ({ origin, params, query }) => {
        return deleteWorkspace(ctx, origin, params.id, query.confirm_default_workspace_deletion ?? false);
      },
      { auth: "session:manager", params: WorkspaceParams, query: DeleteWorkspaceQuery },
    )
    .get(
      "/workspaces/:id/members",
      async ({ viewer, params }) => {
        const ws = await visibleWorkspace(ctx, viewer, params.id);
        const members = await listMembers(ctx, params.id, { limit: 1000 });
        // names and emails for everyone who sees the workspace (a member cannot read the organization's users)
        const users = await Promise.all(members.data.map((m) => ctx.store.users.get(m.user_id)));
        const guardrails = await memberGuardrails(ctx.store.guardrails, ws.id);
        return {
          ...members,
          data: members.data.map((m, i) => ({
            ...m,
            email: users[i]?.email ?? null,
            name: users[i]?.name ?? null,
            guardrail: guardrails.get(m.user_id) ?? null,
          })),
        };
      },
      { auth: "session", params: WorkspaceParams },
    )
    .post(
      "/workspaces/:id/members/add",
      ({ origin, params, body }) => {
        return addMembers(ctx, origin, params.id, body.user_ids);
      },
      { auth: "session:manager", params: WorkspaceParams, body: UserIdsBody },
    )
    .post(
      "/workspaces/:id/members/remove",
      ({ origin, params, body }) => {
        return removeMembers(ctx, origin, params.id, body.user_ids);
      },
      { auth: "session:manager", params: WorkspaceParams, body: UserIdsBody },
    )
    .get(
      "/workspaces/:id/budgets",
      async ({ viewer, params }) => {
        const ws = await visibleWorkspace(ctx, viewer, params.id);
        const listed = await listBudgets(ctx, params.id);
        // what each budget's window has spent, beside its limit
        const records = await ctx.store.budgets.list(ws.id);
        const figures = budgetFigures(records, await ctx.store.budgets.usage(ws.id), listed.include_byok_in_budgets, ctx.clock());
        const spent = new Map(figures.map((f) => [f.interval, nanosToUsd(f.spentNanos)]));
        return { ...listed, data: listed.data.map((b, i) => ({ ...b, interval: records[i]!.interval, usage_usd: spent.get(records[i]!.interval) ?? 0 })) };
      },
      { auth: "session", params: WorkspaceParams },
    )
    .put(
      "/workspaces/:id/budgets/:interval",
      ({ origin, params, body }) => {
        return setBudget(ctx, origin, params.id, params.interval, body);
      },
      { auth: "session:manager", params: BudgetParams, body: PutBudgetBody },
    )
    .delete(
      "/workspaces/:id/budgets/:interval",
      ({ origin, params }) => {
        return deleteBudget(ctx, origin, params.id, params.interval);
      },
      { auth: "session:manager", params: BudgetParams },
    )
    .post(
      "/workspaces/:id/webhook-secret",
      ({ origin, params }) => {
        return rotateWebhookSecret(ctx, origin, params.id);
      },
      { auth: "session:manager", params: WorkspaceParams },
    )
    .get(
      "/users",
      () => {
        return listUsers(ctx, { limit: 1000 });
      },
      { auth: "session:manager", query: t.Object({}) },
    );
}
