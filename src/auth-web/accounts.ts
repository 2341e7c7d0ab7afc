import type { AppContext } from "../app-context";
import { REDACTED } from "../audit/changes";
import type { ChangeOrigin } from "../audit/origin";
import { recordChange } from "../audit/record";
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
export async function setPassword(ctx: AccountContext, origin: ChangeOrigin, userId: string, password: string): Promise<UserRecord> {
  const user = await existingUser(ctx, userId);
  if (!user.email) throw badRequest(`User '${userId}' has no email to sign in with; give them one first`, { field: "email" });
  const hash = await hashPassword(checkedPassword(password));
  const now = ctx.clock();
  await ctx.store.transaction(async (tx) => {
    const had = (await tx.passwords.get(userId)) !== undefined;
    await tx.passwords.put(userId, hash, now);
    const sessions = await tx.sessions.deleteForUser(userId);
    await tx.invites.deleteForUser(userId);
    await recordChange(tx, now, origin, {
      action: "user.password",
      target: { type: "user", id: userId },
      changes: { password: { from: had ? REDACTED : null, to: REDACTED }, ...(sessions > 0 && { sessions: { from: sessions, to: 0 } }) },
    });
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

/** Uses the invite (once) to set the user's password; undefined when the token is unknown, used or expired. `source`: the browser's address and user agent. */
export async function acceptInvite(
  ctx: AccountContext,
  source: Pick<ChangeOrigin, "ip" | "userAgent">,
  token: string,
  password: string,
): Promise<UserRecord | undefined> {
  checkedPassword(password);
  const invite = await ctx.store.invites.take(tokenDigest(token));
  if (!invite || invite.expiresAt <= ctx.clock()) return undefined;
  const user = await existingUser(ctx, invite.userId);
  return setPassword(ctx, { actor: { type: "user", id: user.id, label: user.email }, ...source }, invite.userId, password);
}
