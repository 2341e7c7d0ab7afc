import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { consoleApiModule } from "./route-module";

/** Who is signed in, what they may do, and the CSRF token the page sends with every change (never in the HTML). */
export function consoleMeRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-me", ctx.store, sessions).get(
    "/me",
    async ({ viewer }) => {
      const all = await ctx.store.workspaces.list(0, 1000);
      const visible = all.filter((w) => viewer.manages || viewer.memberOf.includes(w.id));
      return {
        data: {
          user_id: viewer.userId,
          email: viewer.session.email,
          role: viewer.role,
          manages: viewer.manages,
          csrf_token: viewer.session.csrfToken,
          workspaces: visible.map((w) => ({ id: w.id, name: w.name, slug: w.slug, is_default: w.isDefault })),
        },
      };
    },
    { auth: "session" },
  );
}
