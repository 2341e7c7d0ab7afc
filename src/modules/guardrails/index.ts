import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import type { Principal } from "../../http/principal";
import {
  AssignedResponse,
  CreateGuardrailBody,
  DeletedResponse,
  GuardrailParams,
  GuardrailResponse,
  KeyAssignmentsResponse,
  KeyHashesBody,
  ListGuardrailsResponse,
  ListQuery,
  MemberAssignmentsResponse,
  MemberIdsBody,
  PageQuery,
  UnassignedResponse,
  UpdateGuardrailBody,
} from "./model";
import {
  assignKeys,
  assignMembers,
  createGuardrail,
  deleteGuardrail,
  getGuardrail,
  listGuardrails,
  listKeyAssignments,
  listMemberAssignments,
  unassignKeys,
  unassignMembers,
  updateGuardrail,
} from "./service";

const tags = ["Guardrails"];

/** Who assigned: the user behind the calling management key, when it has one. */
const assigner = (principal: Principal) => principal.key.creatorUserId;

/** OpenRouter's guardrails API (`@openrouter/sdk` `guardrails.*`): management keys only, checked before the body. */
export function guardrailRoutes(ctx: AppContext) {
  return (
    routeModule("guardrails", "/api/v1")
      .use(authPlugin(ctx.store, ctx.clock))
      // the literal assignment paths before /guardrails/:id, which would take "assignments" for an id
      .get("/guardrails/assignments/keys", ({ query }) => listKeyAssignments(ctx, null, query), {
        auth: "management",
        query: PageQuery,
        response: KeyAssignmentsResponse,
        detail: { tags, summary: "List every guardrail's key assignments" },
      })
      .get("/guardrails/assignments/members", ({ query }) => listMemberAssignments(ctx, null, query), {
        auth: "management",
        query: PageQuery,
        response: MemberAssignmentsResponse,
        detail: { tags, summary: "List every guardrail's member assignments" },
      })
      .get("/guardrails", ({ query }) => listGuardrails(ctx, query), {
        auth: "management",
        query: ListQuery,
        response: ListGuardrailsResponse,
        detail: { tags, summary: "List a workspace's guardrails (default: the default workspace's)" },
      })
      .post(
        "/guardrails",
        async ({ origin, body, set }) => {
          set.status = 201;
          return { data: await createGuardrail(ctx, origin, body) };
        },
        {
          auth: "management",
          body: CreateGuardrailBody,
          response: { 201: GuardrailResponse },
          detail: {
            tags,
            summary: "Create a guardrail",
            description:
              "A guardrail enforces nothing until it is assigned to keys or members (or is a workspace's default_guardrail_id). Custom content_filters patterns " +
              "with lookaround, backreferences or nested quantifiers are refused with invalid_regex_pattern.",
          },
        },
      )
      .get("/guardrails/:id", async ({ params }) => ({ data: await getGuardrail(ctx, params.id) }), {
        auth: "management",
        params: GuardrailParams,
        response: GuardrailResponse,
        detail: { tags, summary: "Get a guardrail" },
      })
      .patch("/guardrails/:id", async ({ origin, params, body }) => ({ data: await updateGuardrail(ctx, origin, params.id, body) }), {
        auth: "management",
        params: GuardrailParams,
        body: UpdateGuardrailBody,
        response: GuardrailResponse,
        detail: {
          tags,
          summary: "Update a guardrail",
          description:
            "Omitted fields stay, null clears a field, a list replaces the whole list. The first PATCH of a workspace's default guardrail stores it.",
        },
      })
      .delete("/guardrails/:id", ({ origin, params }) => deleteGuardrail(ctx, origin, params.id), {
        auth: "management",
        params: GuardrailParams,
        response: DeletedResponse,
        detail: { tags, summary: "Delete a guardrail and its assignments" },
      })
      .get("/guardrails/:id/assignments/keys", ({ params, query }) => listKeyAssignments(ctx, params.id, query), {
        auth: "management",
        params: GuardrailParams,
        query: PageQuery,
        response: KeyAssignmentsResponse,
        detail: { tags, summary: "List a guardrail's key assignments" },
      })
      .post(
        "/guardrails/:id/assignments/keys",
        ({ origin, principal, params, body }) => assignKeys(ctx, origin, assigner(principal), params.id, body.key_hashes),
        {
          auth: "management",
          params: GuardrailParams,
          body: KeyHashesBody,
          response: AssignedResponse,
          detail: { tags, summary: "Assign keys to a guardrail (a key holds one guardrail: it moves from any other)" },
        },
      )
      .post("/guardrails/:id/assignments/keys/remove", ({ origin, params, body }) => unassignKeys(ctx, origin, params.id, body.key_hashes), {
        auth: "management",
        params: GuardrailParams,
        body: KeyHashesBody,
        response: UnassignedResponse,
        detail: { tags, summary: "Unassign keys from a guardrail" },
      })
      .get("/guardrails/:id/assignments/members", ({ params, query }) => listMemberAssignments(ctx, params.id, query), {
        auth: "management",
        params: GuardrailParams,
        query: PageQuery,
        response: MemberAssignmentsResponse,
        detail: { tags, summary: "List a guardrail's member assignments" },
      })
      .post(
        "/guardrails/:id/assignments/members",
        ({ origin, principal, params, body }) => assignMembers(ctx, origin, assigner(principal), params.id, body.member_user_ids),
        {
          auth: "management",
          params: GuardrailParams,
          body: MemberIdsBody,
          response: AssignedResponse,
          detail: {
            tags,
            summary: "Assign members to a guardrail",
            description: "A member guardrail covers every key the member created in the guardrail's workspace; a member holds one guardrail per workspace.",
          },
        },
      )
      .post("/guardrails/:id/assignments/members/remove", ({ origin, params, body }) => unassignMembers(ctx, origin, params.id, body.member_user_ids), {
        auth: "management",
        params: GuardrailParams,
        body: MemberIdsBody,
        response: UnassignedResponse,
        detail: { tags, summary: "Unassign members from a guardrail" },
      })
  );
}
