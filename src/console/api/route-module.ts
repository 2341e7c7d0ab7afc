import type { Store } from "../../store/store";
import { routeModule } from "../../http/module";
import { consoleGuard } from "../session-guard";
import type { SessionSource } from "../viewer";

/** Every console JSON module starts here: under /console/api, behind the session guard, out of the API document. */
export function consoleApiModule<const Name extends string>(name: Name, store: Store, sessions: SessionSource) {
  return routeModule(name, "/console/api").use(consoleGuard(store, sessions));
}

/** route options every console route shares: the viewer, and no place in /api/v1/openapi.json */
export const VIEWER = { viewer: true, detail: { hide: true } } as const;
