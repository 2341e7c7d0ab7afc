import type { UserRole } from "../store/store";

/** A signed-in browser session, as the sign-in module resolves it from the session cookie. */
export type ConsoleSession = { sessionId: string; userId: string; email: string; role: UserRole; csrfToken: string };

/** Where the auth plugin learns who is signed in (src/auth-web), passed in so that neither it nor the console owns a session rule. */
export type SessionSource = {
  signedIn(request: Request): Promise<ConsoleSession | null>;
  csrfValid(session: ConsoleSession, token: string | null | undefined): boolean;
};

/**
 * Who is looking at the console: resolved from the session by the auth plugin. Owners and admins of the organization manage everything;
 * a member sees their own keys and the usage of their workspaces, read-only elsewhere.
 */
export type Viewer = {
  session: ConsoleSession;
  userId: string;
  role: UserRole;
  manages: boolean;
  /** the workspaces the user is a member of (for a manager too; managers see every workspace regardless) */
  memberOf: readonly string[];
};
