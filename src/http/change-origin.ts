import type { ChangeOrigin } from "../audit/origin";
import type { Caller } from "./caller";
import { clientAddress } from "./client-address";

type RequestIp = { requestIP(request: Request): { address: string } | null } | null;

/** Longer user agents are cut: the audit log keeps what identifies a client, not whatever a client sends. */
const USER_AGENT_MAX = 512;

/** Who made a change through the API or the console, and from where: a management key by its hash and name, a signed-in person by id and email. */
export function changeOriginOf(caller: Caller, request: Request, server: RequestIp): ChangeOrigin {
  const actor =
    caller.via === "key"
      ? { type: "key" as const, id: caller.principal.key.hash, label: caller.principal.key.name }
      : { type: "user" as const, id: caller.viewer.userId, label: caller.viewer.session.email || null };
  return { actor, ...requestSource(request, server) };
}

/** The address and user agent of a request, as an event records them. */
export function requestSource(request: Request, server: RequestIp): Pick<ChangeOrigin, "ip" | "userAgent"> {
  return { ip: clientAddress(server, request), userAgent: request.headers.get("user-agent")?.slice(0, USER_AGENT_MAX) ?? null };
}
