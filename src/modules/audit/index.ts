import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { ListAuditLogsQuery, ListAuditLogsResponse, VerifyAuditLogResponse } from "./model";
import { listAuditEvents, verifyAuditLog } from "./service";

const tags = ["Audit log"];

/** The audit log of administrative changes: management keys only. */
export function auditRoutes(ctx: AppContext) {
  return routeModule("audit", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/audit-logs", ({ query }) => listAuditEvents(ctx.store, query), {
      auth: "management",
      query: ListAuditLogsQuery,
      response: ListAuditLogsResponse,
      detail: {
        tags,
        summary: "List audit events, newest first",
        description:
          "Every administrative change (keys, workspaces, members, BYOK, presets, budgets, destinations, users, SCIM, sign-ins) is an event, " +
          "written in the same transaction as the change and chained by SHA-256. Filters: actor_id, action, target_id, since (inclusive), until (exclusive); " +
          "pages by `cursor` (the previous page's next_cursor).",
      },
    })
    .get("/audit-logs/verify", () => verifyAuditLog(ctx.store), {
      auth: "management",
      response: VerifyAuditLogResponse,
      detail: { tags, summary: "Check the audit log's hash chain: ok, or the first event that was edited or removed" },
    });
}
