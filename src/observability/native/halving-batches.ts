import type { SendOutcome } from "../contract";
import { classifyResponse, type HttpResult, type StatusPolicy } from "./post-json";

/**
 * Sends items in one batch and, whenever the destination answers 413 (too large), sends each
 * half on its own, down to single items, as PostHog's own clients do. The first batch that
 * does not go through decides the outcome; the halves already delivered are sent again on a
 * retry, which is safe where the destination dedupes by event id (PostHog does, by `uuid`).
 */
export async function sendHalvingOn413<T>(items: readonly T[], post: (batch: readonly T[]) => Promise<HttpResult>, now: () => number, policy?: StatusPolicy): Promise<SendOutcome> {
  const pending: (readonly T[])[] = [items];
  while (pending.length > 0) {
    const batch = pending.shift()!;
    const result = await post(batch);
    if (result.kind === "response" && result.status === 413) {
      if (batch.length <= 1) return { kind: "failed", reason: "destination answered 413: one event is larger than it accepts" };
      const half = Math.ceil(batch.length / 2);
      pending.unshift(batch.slice(0, half), batch.slice(half));
      continue;
    }
    const outcome = classifyResponse(result, now(), policy);
    if (outcome.kind !== "delivered") return outcome;
  }
  return { kind: "delivered" };
}
