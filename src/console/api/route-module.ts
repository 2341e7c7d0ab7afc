import type { Store } from "../../store/store";
import { routeModule } from "../../http/module";
import { consoleGuard } from "../session-guard";
import type { SessionSource } from "../viewer";

/** Every console JSON module starts here: under /console/api, behind the session guard, out of the API document. */
export function consoleApiModule<const Name extends string>(name: Name, store: Store, sessions: SessionSource) {
  return routeModule(name, "/console/api").use(consoleGuard(store, sessions));
}

// Spread these into each route's options ({ ...VIEWER }): Elysia adds the macro's hooks to the
// options object it is given, and a shared one would carry the first app's hooks to every other.

/** route options of a console route any signed-in person may call (it narrows by workspace itself), kept out of /api/v1/openapi.json */
export const VIEWER = { viewer: "any", detail: { hide: true } } as const;

/** route options of a console route only organization owners and admins may call: others are refused before validation */
export const MANAGER = { viewer: "manager", detail: { hide: true } } as const;
