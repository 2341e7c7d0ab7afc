import type { AppContext } from "../app-context";
import { badRequest } from "../errors";
import type { RefusalCursor, RefusalRecord } from "../store/store";
import { isoTime } from "../time";

/** A refused request as the console's log shows it: names beside ids. */
export type RefusalOut = {
  id: string;
  created_at: string;
  status: number;
  error_code: string;
  reason: string;
  route: string;
  model: string | null;
  key_hash: string | null;
  key_name: string | null;
  workspace_id: string | null;
};

export type RefusalQuery = { workspaceIds?: readonly string[]; keyHash?: string; status?: number; from?: string; to?: string; cursor?: string; limit?: number };

const encode = (c: RefusalCursor) => Buffer.from(`${c.createdAt}:${c.id}`).toString("base64url");

function decode(cursor: string): RefusalCursor {
  const text = Buffer.from(cursor, "base64url").toString();
  const colon = text.indexOf(":");
  const createdAt = Number(text.slice(0, colon));
  if (colon < 1 || !Number.isSafeInteger(createdAt)) throw badRequest("Invalid query parameter 'cursor': not a next_cursor this API gave", { field: "cursor" });
  return { createdAt, id: text.slice(colon + 1) };
}

function time(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw badRequest(`Invalid query parameter '${field}': expected an ISO 8601 date-time`, { field });
  return ms;
}

/** The refusal log newest first, a keyset page at a time, each row with its key's name. */
export async function listRefusals(ctx: Pick<AppContext, "store" | "refusals">, q: RefusalQuery): Promise<{ data: RefusalOut[]; next_cursor: string | null }> {
  const limit = q.limit ?? 50;
  await ctx.refusals.settled();
  const rows = await ctx.store.refusals.list(
    { workspaceIds: q.workspaceIds, keyHash: q.keyHash, status: q.status, from: time(q.from, "from"), to: time(q.to, "to") },
    q.cursor === undefined ? null : decode(q.cursor),
    limit + 1,
  );
  const page = rows.slice(0, limit);
  const names = new Map<string, string | null>();
  for (const hash of new Set(page.flatMap((r) => (r.keyHash ? [r.keyHash] : [])))) names.set(hash, (await ctx.store.keys.get(hash))?.name ?? null);
  const last = page.at(-1);
  return { data: page.map((r) => rendered(r, names)), next_cursor: rows.length > limit && last ? encode(last) : null };
}

const rendered = (r: RefusalRecord, names: Map<string, string | null>): RefusalOut => ({
  id: r.id,
  created_at: isoTime(r.createdAt),
  status: r.status,
  error_code: r.errorCode,
  reason: r.reason,
  route: r.route,
  model: r.model,
  key_hash: r.keyHash,
  key_name: r.keyHash ? (names.get(r.keyHash) ?? null) : null,
  workspace_id: r.workspaceId,
});
