import { userInfo } from "node:os";
import type { AuditActorType } from "../store/audit-store";

/** Who made a change: a signed-in person, a management key, the SCIM client of a token, the command line, or the gateway itself. */
export type AuditActor = { type: AuditActorType; id: string | null; label: string | null };

/** Who made a change and from where; every audited service takes one. */
export type ChangeOrigin = { actor: AuditActor; ip: string | null; userAgent: string | null };

/** The gateway itself (first start, a retention purge, a sync job); `label` says what. */
export const systemOrigin = (label: string): ChangeOrigin => ({ actor: { type: "system", id: null, label }, ip: null, userAgent: null });

function osUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}

/** A `gateway` command run on the host: the operating-system account that ran it, and the command. */
export const cliOrigin = (command: string): ChangeOrigin => ({ actor: { type: "cli", id: osUser(), label: `gateway ${command}` }, ip: null, userAgent: null });
