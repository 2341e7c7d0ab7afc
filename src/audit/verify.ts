import type { AuditEventRecord, StoreTables } from "../store/store";
import { ANCHOR_KEY, type ChainLink, eventHash, GENESIS_HASH, HEAD_KEY, parseLink } from "./chain";

export type ChainVerdict =
  | { ok: true; events: number; first: number | null; last: number | null }
  /** `seq`: the first event found broken (or where the missing one should be); `reason` says what is wrong */
  | { ok: false; events: number; seq: number; reason: string };

const PAGE = 1_000;

/** What is wrong with one event given the link before it; null when it holds. */
function brokenLink(previous: ChainLink, event: AuditEventRecord): string | null {
  if (event.seq !== previous.seq + 1) return `event ${previous.seq + 1} is missing (the next one kept is ${event.seq})`;
  if (event.prevHash !== previous.hash) return `its previous hash does not match event ${previous.seq}: an event before it was changed or removed`;
  const { prevHash: _p, hash: _h, ...body } = event;
  if (eventHash(event.prevHash, body) !== event.hash) return "its hash does not match its content: the event was edited";
  return null;
}

/**
 * Walks the chain from the oldest kept event to the newest: each event must follow the link
 * before it (the anchor a retention purge left, or the genesis), hash to its own hash, and the
 * last must be the head kept in `meta`, so a removed newest event shows as well as an edited
 * or removed one in the middle.
 */
export async function verifyChain(store: Pick<StoreTables, "audit" | "meta">): Promise<ChainVerdict> {
  const anchor = parseLink(await store.meta.get(ANCHOR_KEY)) ?? { seq: 0, hash: GENESIS_HASH };
  const head = parseLink(await store.meta.get(HEAD_KEY));
  let previous: ChainLink = anchor;
  let events = 0;
  let first: number | null = null;
  for (let cursor = -1; ; ) {
    const page = await store.audit.inOrder(cursor, PAGE);
    for (const event of page) {
      cursor = event.seq;
      if (event.seq <= anchor.seq) return { ok: false, events, seq: event.seq, reason: `it is older than the retention anchor (event ${anchor.seq})` };
      const problem = brokenLink(previous, event);
      if (problem) return { ok: false, events, seq: event.seq, reason: problem };
      first ??= event.seq;
      previous = { seq: event.seq, hash: event.hash };
      events++;
    }
    if (page.length < PAGE) break;
  }
  if (head === undefined)
    return events === 0 ? { ok: true, events, first, last: null } : { ok: false, events, seq: previous.seq, reason: "the chain's head is missing" };
  if (head.seq !== previous.seq || head.hash !== previous.hash)
    return {
      ok: false,
      events,
      seq: previous.seq + 1,
      reason: `the log ends at event ${previous.seq} but its head is event ${head.seq}: newer events were removed or changed`,
    };
  return { ok: true, events, first, last: events > 0 ? previous.seq : null };
}
