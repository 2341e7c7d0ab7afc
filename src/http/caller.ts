import type { Principal } from "./principal";
import type { Viewer } from "./viewer";

/**
 * Who is calling, as the auth plugin admitted them: the principal of a key (the API's routes) or
 * the viewer of a signed-in session (the console's JSON routes). What a route lets them do is
 * the auth plugin's `authorize`; what they may see of a resource, console/permissions.ts.
 */
export type Caller = { via: "key"; principal: Principal } | { via: "session"; viewer: Viewer };
