import { Elysia } from "elysia";
import { GatewayError } from "../errors";
import type { Store } from "../store/store";
import { requireManager } from "./permissions";
import type { SessionSource, Viewer } from "./viewer";
import { requestContext } from "../http/request-context";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Resolves the signed-in viewer of a console request, or throws: 401 without a session (a
 * bearer key is not a session: /console never reads one), 403 for a state change without the
 * session's CSRF token in `x-csrf-token`.
 */
export async function admitViewer(store: Store, sessions: SessionSource, request: Request): Promise<Viewer> {
  const session = await sessions.signedIn(request);
  if (!session) throw new GatewayError(401, "Not signed in: sign in at /login");
  if (!SAFE_METHODS.has(request.method) && !sessions.csrfValid(session, request.headers.get("x-csrf-token")))
    throw new GatewayError(403, "Missing or invalid CSRF token: send the session's token in the x-csrf-token header", { field: "x-csrf-token" });
  // the session source reads the user on every request, so a changed role applies at once
  const memberships = await store.members.ofUser(session.userId);
  return {
    session,
    userId: session.userId,
    role: session.role,
    manages: session.role === "owner" || session.role === "admin",
    memberOf: memberships.map((m) => m.workspaceId),
  };
}

/**
 * The one guard of the console's JSON routes: routes declare `viewer: "any"` or `"manager"`
 * and receive `viewer`. It runs in `transform`, before Elysia validates anything, so only a
 * signed-in caller with a valid CSRF token, and for manager routes an owner or admin, learns
 * what is wrong with its input.
 */
export function consoleGuard(store: Store, sessions: SessionSource) {
  return new Elysia({ name: "console-guard" }).macro({
    viewer: (who: "any" | "manager") => ({
      async transform({ request }) {
        const viewer = await admitViewer(store, sessions, request);
        if (who === "manager") requireManager(viewer);
        requestContext(request).viewer = viewer;
      },
      resolve({ request }) {
        const { viewer } = requestContext(request);
        if (!viewer) throw new Error("console: resolve ran without the transform that admits the viewer");
        return { viewer };
      },
    }),
  });
}
