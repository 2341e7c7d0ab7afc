/**
 * People signing in (password hashes, browser sessions, invite links) and the authorization
 * codes of the PKCE flow. Every secret arrives here already hashed; what the hashes protect
 * never reaches the store.
 */

import type { LimitReset } from "./account-store";

export interface PasswordStore {
  /** the user's argon2id hash, if a password was set */
  get(userId: string): Promise<string | undefined>;
  /** sets or replaces the user's hash */
  put(userId: string, hash: string, now: number): Promise<void>;
  delete(userId: string): Promise<boolean>;
}

/** `id` is the SHA-256 hex of the cookie value. */
export type WebSessionRecord = { id: string; userId: string; createdAt: number; lastSeenAt: number; expiresAt: number };

export interface WebSessionStore {
  create(session: WebSessionRecord): Promise<WebSessionRecord>;
  get(id: string): Promise<WebSessionRecord | undefined>;
  /** moves the idle clock of a live session */
  touch(id: string, lastSeenAt: number): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** every session of the user (signed out everywhere); how many there were */
  deleteForUser(userId: string): Promise<number>;
  /** sessions past their absolute end, or last seen before `idleSince` */
  deleteExpired(now: number, idleSince: number): Promise<number>;
}

/** `tokenHash` is the SHA-256 hex of the token in the invite URL. */
export type InviteRecord = { tokenHash: string; userId: string; createdAt: number; expiresAt: number };

export interface InviteStore {
  create(invite: InviteRecord): Promise<InviteRecord>;
  get(tokenHash: string): Promise<InviteRecord | undefined>;
  /** removes the invite and returns it: exactly one of concurrent callers gets it */
  take(tokenHash: string): Promise<InviteRecord | undefined>;
  deleteForUser(userId: string): Promise<number>;
}

/** `id` is the SHA-256 hex of the code; the rest is what the minted key will be. */
export type AuthCodeRecord = {
  id: string;
  userId: string;
  workspaceId: string;
  callbackUrl: string;
  appId: number;
  codeChallenge: string | null;
  codeChallengeMethod: "S256" | "plain" | null;
  limitNanos: number | null;
  limitReset: LimitReset | null;
  keyExpiresAt: number | null;
  keyLabel: string | null;
  createdAt: number;
  expiresAt: number;
};

export interface AuthCodeStore {
  create(code: AuthCodeRecord): Promise<AuthCodeRecord>;
  /** removes the code and returns it: exactly one of concurrent callers gets it, expired or not */
  take(id: string): Promise<AuthCodeRecord | undefined>;
  /** codes whose lifetime ended before `now` */
  deleteExpired(now: number): Promise<number>;
  deleteForUser(userId: string): Promise<number>;
}
