import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import type { SessionSource } from "../../http/viewer";
import type { Store } from "../../store/store";

/**
 * Every console JSON module starts here: under /console/api, behind the auth plugin's session
 * kinds. Routes declare `auth: "session"` (anyone signed in; the route narrows by workspace
 * itself) or `auth: "session:manager"` (organization owners and admins; others are refused
 * before validation), receive `viewer`, and stay out of /api/v1/openapi.json.
 */
export function consoleApiModule<const Name extends string>(name: Name, store: Store, sessions: SessionSource) {
  return routeModule(name, "/console/api").use(authPlugin(store, sessions));
}
