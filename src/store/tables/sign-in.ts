import { index, integer, millis, nanos, table, text } from "./kit";

/**
 * People signing in: password hashes, browser sessions, invite links, and the authorization
 * codes of the PKCE flow. Secrets are stored only as hashes: argon2id for passwords, SHA-256 for
 * the random session ids, invite tokens and codes (which carry 256 bits, so a fast hash suffices).
 */

/** apart from `users`, so that no user lookup (and no read cache) ever carries a password hash */
export const userPasswords = table("user_passwords", {
  userId: text("user_id").primaryKey(),
  /** Bun.password (argon2id) PHC string */
  hash: text("hash").notNull(),
  updatedAt: millis("updated_at").notNull(),
});

export const webSessions = table(
  "web_sessions",
  {
    /** SHA-256 hex of the cookie value */
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: millis("created_at").notNull(),
    lastSeenAt: millis("last_seen_at").notNull(),
    /** the absolute end, whatever the activity */
    expiresAt: millis("expires_at").notNull(),
  },
  (table) => [index("web_sessions_user").on(table.userId)],
);

export const userInvites = table(
  "user_invites",
  {
    /** SHA-256 hex of the token in the invite URL */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
  },
  (table) => [index("user_invites_user").on(table.userId)],
);

export const authCodes = table(
  "auth_codes",
  {
    /** SHA-256 hex of the code handed to the app */
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    callbackUrl: text("callback_url").notNull(),
    appId: integer("app_id").notNull(),
    codeChallenge: text("code_challenge"),
    codeChallengeMethod: text("code_challenge_method", { enum: ["S256", "plain"] }),
    /** what the minted key gets */
    limitNanos: nanos("limit_nanos"),
    limitReset: text("limit_reset", { enum: ["daily", "weekly", "monthly"] }),
    keyExpiresAt: millis("key_expires_at"),
    keyLabel: text("key_label"),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
  },
  (table) => [index("auth_codes_expires").on(table.expiresAt)],
);
