import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { deleteBudget, getBudget, listBudgets, setBudget } from "./budgets";
import { addMembers, listMembers, removeMembers } from "./members";
import {
  AddMembersResponse,
  BudgetParams,
  BudgetResponse,
  CreateWorkspaceBody,
  DeletedResponse,
  DeleteWorkspaceQuery,
  ListBudgetsResponse,
  ListMembersResponse,
  ListWorkspacesResponse,
  PageQuery,
  PutBudgetBody,
  RemoveMembersResponse,
  UpdateWorkspaceBody,
  UserIdsBody,
  WebhookSecretBody,
  WebhookSecretResponse,
  WorkspaceParams,
  WorkspaceResponse,
} from "./model";
import { createWorkspace, deleteWorkspace, getWorkspace, listWorkspaces, updateWorkspace } from "./service";
import { rotateWebhookSecret } from "./webhook-secret";

const tags = ["Workspaces"];

export function workspaceRoutes(ctx: AppContext) {
  return routeModule("workspaces", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/workspaces", ({ query }) => listWorkspaces(ctx, query), {
      auth: "management",
      query: PageQuery,
      response: ListWorkspacesResponse,
      detail: { tags, summary: "List workspaces" },
    })
    .post(
      "/workspaces",
      async ({ principal, origin, body, set }) => {
        set.status = 201;
        return { data: await createWorkspace(ctx, origin, principal.key.creatorUserId, body) };
      },
      {
        auth: "management",
        body: CreateWorkspaceBody,
        response: { 201: WorkspaceResponse },
        detail: { tags, summary: "Create a workspace" },
      },
    )
    .get("/workspaces/:id", async ({ params }) => ({ data: await getWorkspace(ctx, params.id) }), {
      auth: "management",
      params: WorkspaceParams,
      response: WorkspaceResponse,
      detail: { tags, summary: "Get a workspace by UUID or slug" },
    })
    .patch("/workspaces/:id", async ({ origin, params, body }) => ({ data: await updateWorkspace(ctx, origin, params.id, body) }), {
      auth: "management",
      params: WorkspaceParams,
      body: UpdateWorkspaceBody,
      response: WorkspaceResponse,
      detail: { tags, summary: "Update a workspace" },
    })
    .delete("/workspaces/:id", ({ origin, params, query }) => deleteWorkspace(ctx, origin, params.id, query.confirm_default_workspace_deletion ?? false), {
      auth: "management",
      params: WorkspaceParams,
      query: DeleteWorkspaceQuery,
      response: DeletedResponse,
      detail: { tags, summary: "Delete a workspace (refused while it has active API keys)" },
    })
    .post("/workspaces/:id/webhook-secret", ({ origin, params }) => rotateWebhookSecret(ctx, origin, params.id), {
      auth: "management",
      params: WorkspaceParams,
      body: WebhookSecretBody,
      response: WebhookSecretResponse,
      detail: {
        tags,
        summary: "Create or rotate the workspace's webhook signing secret",
        description:
          "Answers the new whsec_ secret once; it is stored encrypted and never returned again. Webhooks carry Standard Webhooks signatures " +
          "(webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body, keyed with the base64-decoded part after whsec_>) and OpenRouter's " +
          "(X-OpenRouter-Signature: t=<unix>,v1=<hex HMAC-SHA256 of t,body, keyed with the secret string's UTF-8 bytes>). " +
          "For 24 hours after a rotation the previous secret signs too: two entries in each header, the new one first.",
      },
    })
    .get("/workspaces/:id/members", ({ params, query }) => listMembers(ctx, params.id, query), {
      auth: "management",
      params: WorkspaceParams,
      query: PageQuery,
      response: ListMembersResponse,
      detail: { tags, summary: "List a workspace's members" },
    })
    .post("/workspaces/:id/members/add", ({ origin, params, body }) => addMembers(ctx, origin, params.id, body.user_ids), {
      auth: "management",
      params: WorkspaceParams,
      body: UserIdsBody,
      response: AddMembersResponse,
      detail: { tags, summary: "Add organization users to a workspace" },
    })
    .post("/workspaces/:id/members/remove", ({ origin, params, body }) => removeMembers(ctx, origin, params.id, body.user_ids), {
      auth: "management",
      params: WorkspaceParams,
      body: UserIdsBody,
      response: RemoveMembersResponse,
      detail: { tags, summary: "Remove users from a workspace (refused for users with active keys in it)" },
    })
    .get("/workspaces/:id/budgets", ({ params }) => listBudgets(ctx, params.id), {
      auth: "management",
      params: WorkspaceParams,
      response: ListBudgetsResponse,
      detail: { tags, summary: "List a workspace's budgets (daily, weekly, monthly, lifetime)" },
    })
    .get("/workspaces/:id/budgets/:interval", ({ params }) => getBudget(ctx, params.id, params.interval), {
      auth: "management",
      params: BudgetParams,
      response: BudgetResponse,
      detail: { tags, summary: "Get a workspace's budget of one interval" },
    })
    .put("/workspaces/:id/budgets/:interval", ({ origin, params, body }) => setBudget(ctx, origin, params.id, params.interval, body), {
      auth: "management",
      params: BudgetParams,
      body: PutBudgetBody,
      response: BudgetResponse,
      detail: {
        tags,
        summary: "Create or change a workspace's budget of one interval",
        description:
          "The workspace's keys together never spend past any of its budgets: each request reserves its worst-case cost against every budget and the key's own limit at once, " +
          "and a request that does not fit gets 402 with metadata.limit_source `openrouter_workspace_budget`. Daily, weekly (Monday) and monthly budgets reset at midnight UTC; lifetime never. " +
          "Limits must strictly decrease lifetime > monthly > weekly > daily. include_byok_in_budgets applies to every interval of the workspace.",
      },
    })
    .delete("/workspaces/:id/budgets/:interval", ({ origin, params }) => deleteBudget(ctx, origin, params.id, params.interval), {
      auth: "management",
      params: BudgetParams,
      response: DeletedResponse,
      detail: { tags, summary: "Delete a workspace's budget of one interval" },
    });
}
