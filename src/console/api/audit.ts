import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { AUDIT_ACTIONS } from "../../audit/actions";
import type { SessionSource } from "../../http/viewer";
import { ListAuditLogsQuery } from "../../modules/audit/model";
import { auditPage, timeParam, verifyAuditLog } from "../../modules/audit/service";
import { AUDIT_RESOURCES, actionsOf, consoleAuditEvents, personName } from "../audit-view";
import { consoleApiModule } from "./route-module";

/** The API's filters, and `resource`: every action of one kind of resource (`key`: key.create, key.update...). */
const AuditQuery = t.Object({
  ...ListAuditLogsQuery.properties,
  resource: t.Optional(t.Union(AUDIT_RESOURCES.map((r) => t.Literal(r)))),
});

/** Who the filter offers: the organization's people, its management keys and its SCIM clients, by name. */
async function actorChoices(ctx: AppContext) {
  const users = await ctx.store.users.list(0, 1000);
  const workspaces = await ctx.store.workspaces.list(0, 1000);
  const keys = (await Promise.all(workspaces.map((w) => ctx.store.keys.list({ workspaceId: w.id, includeDisabled: true, offset: 0, limit: 1000 })))).flat();
  const tokens = await ctx.store.scimTokens.list();
  return [
    ...users.map((u) => ({ id: u.id, type: "user" as const, name: personName(u) ?? u.id })),
    ...keys.filter((k) => k.isManagement).map((k) => ({ id: k.hash, type: "key" as const, name: k.name })),
    ...tokens.map((s) => ({ id: s.id, type: "scim" as const, name: `SCIM client “${s.name}”` })),
  ];
}

/**
 * The audit log for the organization's owners and admins: a page of events newest first with the
 * names of who and what, the filters' choices, and the hash chain checked by the verifier of
 * `gateway audit verify` (naming the first broken event).
 */
export function consoleAuditRoutes(ctx: AppContext, sessions: SessionSource) {
  // the verifier re-reads the whole log (seconds at 100,000 events): managers opening the page at
  // once share the run in progress instead of starting one each
  let running: Promise<Awaited<ReturnType<typeof verifyAuditLog>>> | undefined;
  const verifyShared = () => {
    running ??= verifyAuditLog(ctx.store).finally(() => {
      running = undefined;
    });
    return running;
  };
  return consoleApiModule("console-audit", ctx.store, sessions)
    .get(
      "/audit",
      async ({ query }) => {
        const { rows, next_cursor } = await auditPage(
          ctx.store,
          {
            actorId: query.actor_id,
            action: query.action,
            actions: query.resource === undefined ? undefined : actionsOf(query.resource),
            targetId: query.target_id,
            since: timeParam(query.since, "since"),
            until: timeParam(query.until, "until"),
            beforeSeq: query.cursor === undefined ? undefined : Number(query.cursor),
          },
          query.limit ?? 50,
        );
        return { data: await consoleAuditEvents(ctx.store, rows), next_cursor };
      },
      { auth: "session:manager", query: AuditQuery },
    )
    .get("/audit/filters", async () => ({ data: { resources: AUDIT_RESOURCES, actions: AUDIT_ACTIONS, actors: await actorChoices(ctx) } }), {
      auth: "session:manager",
    })
    .get(
      "/audit/verify",
      async () => {
        const verdict = await verifyShared();
        const seq = verdict.broken_id === null ? undefined : Number(verdict.broken_id);
        // the broken event itself, when it is still there (a removed one is named by its number alone)
        const [broken] = seq === undefined ? [] : (await ctx.store.audit.list({ beforeSeq: seq + 1 }, 1)).filter((e) => e.seq === seq);
        return { data: { ...verdict, broken_event: broken ? (await consoleAuditEvents(ctx.store, [broken]))[0]! : null } };
      },
      { auth: "session:manager" },
    );
}
