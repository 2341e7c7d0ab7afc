import { lt, or } from "drizzle-orm";
import type { webSessions } from "../tables/sign-in";
import type { EitherTable } from "./shapes";

/** Sessions past their absolute end (`expires_at` at `now` included), or last seen before `idleSince`. */
export const expiredSessions = (t: EitherTable<typeof webSessions>, now: number, idleSince: number) =>
  or(lt(t.expiresAt, now + 1), lt(t.lastSeenAt, idleSince));
