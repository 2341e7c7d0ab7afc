import canonicalize from "canonicalize";
import type { AuditEventRecord } from "../store/audit-store";

/** The previous hash of the first event ever written. */
export const GENESIS_HASH = "0".repeat(64);

/** Where the chain is held beside the events (the `meta` table), so that a removed newest or oldest event shows too. */
export const HEAD_KEY = "audit.head";
export const ANCHOR_KEY = "audit.anchor";

/** A link of the chain as kept in `meta`: an event's number and hash. */
export type ChainLink = { seq: number; hash: string };

export const chainLink = (event: Pick<AuditEventRecord, "seq" | "hash">): ChainLink => ({ seq: event.seq, hash: event.hash });

export function parseLink(text: string | undefined): ChainLink | undefined {
  if (text === undefined) return undefined;
  const value = JSON.parse(text) as Partial<ChainLink>;
  return typeof value.seq === "number" && typeof value.hash === "string" ? { seq: value.seq, hash: value.hash } : undefined;
}

/**
 * What an event's hash covers, besides the previous hash: every field of the row but the two
 * hashes, as JSON in the JSON Canonicalization Scheme (RFC 8785: keys sorted, numbers and strings
 * in one spelling), so the same event always hashes alike, whichever dialect read it back.
 */
export function canonicalEvent(event: Omit<AuditEventRecord, "prevHash" | "hash">): string {
  return canonicalize({
    seq: event.seq,
    created_at: event.createdAt,
    actor: { type: event.actorType, id: event.actorId, label: event.actorLabel },
    action: event.action,
    target: { type: event.targetType, id: event.targetId },
    workspace_id: event.workspaceId,
    ip: event.ip,
    user_agent: event.userAgent,
    changes: JSON.parse(event.changes),
  })!;
}

/** SHA-256 (hex) over the previous event's hash and this event's canonical JSON: editing any event, or taking one out, breaks every link after it. */
export function eventHash(prevHash: string, event: Omit<AuditEventRecord, "prevHash" | "hash">): string {
  return new Bun.CryptoHasher("sha256").update(prevHash).update("\n").update(canonicalEvent(event)).digest("hex");
}
