import type { AppContext } from "../app-context";
import { randomToken, tokenDigest } from "../crypto/secret-token";
import { badRequest, conflict, notFound } from "../errors";
import type { UserRecord } from "../store/store";
import { checkedPassword, hashPassword } from "./passwords";

/** Invite links work once, for a day. */
export const INVITE_LIFETIME_MS = 24 * 3_600_000;

type AccountContext = Pick<AppContext, "store" | "clock">;

async function existingUser(ctx: AccountContext, userId: string): Promise<UserRecord> {
  const user = await ctx.store.users.get(userId);
  if (!user) throw notFound(`User not found: '${userId}'`);
  return user;
}

/**
 * Sets (or replaces) the user's password. Every session of the user ends and open invites are
 * void: whoever knew the old password, or held a link, is out.
 */
export async function setPassword(ctx: AccountContext, userId: string, password: string): Promise<UserRecord> {
  const user = await existingUser(ctx, userId);
  if (!user.email) throw badRequest(`User '${userId}' has no email to sign in with; give them one first`, { field: "email" });
  const hash = await hashPassword(checkedPassword(password));
  await ctx.store.transaction(async (tx) => {
    await tx.passwords.put(userId, hash, ctx.clock());
    await tx.sessions.deleteForUser(userId);
    await tx.invites.deleteForUser(userId);
  });
  return user;
}

/** A one-time link, valid INVITE_LIFETIME_MS, that lets a user without a password choose one. */
export async function createInvite(ctx: AccountContext, userId: string, publicUrl: string): Promise<{ url: string; expiresAt: number }> {
  const user = await existingUser(ctx, userId);
  if (!user.email) throw badRequest(`User '${userId}' has no email to sign in with; give them one first`, { field: "email" });
  if (await ctx.store.passwords.get(userId)) throw conflict(`User '${userId}' already has a password; change it with 'gateway users passwd ${userId}'`);
  const token = randomToken();
  const now = ctx.clock();
  const expiresAt = now + INVITE_LIFETIME_MS;
  await ctx.store.invites.create({ tokenHash: tokenDigest(token), userId, createdAt: now, expiresAt });
  return { url: `${publicUrl}/invite?token=${token}`, expiresAt };
}

/** The user an invite token is for, while it is valid; undefined otherwise (nothing says why). */
export async function inviteeOf(ctx: AccountContext, token: string): Promise<UserRecord | undefined> {
  const invite = await ctx.store.invites.get(tokenDigest(token));
  if (!invite || invite.expiresAt <= ctx.clock()) return undefined;
  return ctx.store.users.get(invite.userId);
}

/** Uses the invite (once) to set the user's password; undefined when the token is unknown, used or expired. */
export async function acceptInvite(ctx: AccountContext, token: string, password: string): Promise<UserRecord | undefined> {
  checkedPassword(password);
  const invite = await ctx.store.invites.take(tokenDigest(token));
  if (!invite || invite.expiresAt <= ctx.clock()) return undefined;
  return setPassword(ctx, invite.userId, password);
}
