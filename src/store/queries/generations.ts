import { and, asc, desc, eq, gte, isNotNull, isNull, lt, ne, or, type Placeholder, type SQL } from "drizzle-orm";
import type { GenerationCursor, GenerationFilter } from "../store";
import type { generationFeedback, generations } from "../tables/money";
import type { EitherTable, Ordering } from "./shapes";

/**
 * The reads of generation records and their feedback. The records are written by each dialect's
 * own commit statement (sqlite/generations.ts, pg/generations.ts), which this leaves alone.
 */
export function generationQueries(g: EitherTable<typeof generations>, f: EitherTable<typeof generationFeedback>, o: Ordering) {
  return {
    /** one record; a placeholder where the statement is prepared once */
    byId: (id: string | Placeholder) => eq(g.id, id),
    since: (since: number) => gte(g.createdAt, since),
    sinceOrder: [asc(g.createdAt), o.ascText(g.id)],
    listed: (filter: GenerationFilter, before: GenerationCursor | null) => listCondition(g, o, filter, before),
    /** newest first: the keyset of `before` */
    listOrder: [desc(g.createdAt), o.descText(g.id)],
    feedbackOf: (generationId: string) => eq(f.generationId, generationId),
    feedbackOrder: [asc(f.createdAt), o.ascText(f.id)],
  };
}

/** A listing's filter and keyset position as one condition (indexed by created_at, and by workspace_id or key_hash with it). */
function listCondition(g: EitherTable<typeof generations>, o: Ordering, f: GenerationFilter, before: GenerationCursor | null): SQL | undefined {
  const status: Record<NonNullable<GenerationFilter["status"]>, SQL | undefined> = {
    success: and(eq(g.cancelled, false), or(isNull(g.finishReason), ne(g.finishReason, "error"))),
    error: and(eq(g.cancelled, false), eq(g.finishReason, "error")),
    cancelled: eq(g.cancelled, true),
  };
  return and(
    f.workspaceId === undefined ? undefined : eq(g.workspaceId, f.workspaceId),
    f.keyHash === undefined ? undefined : eq(g.keyHash, f.keyHash),
    f.model === undefined ? undefined : eq(g.model, f.model),
    f.provider === undefined ? undefined : eq(g.providerName, f.provider),
    f.status === undefined ? undefined : status[f.status],
    // flagged: the partial index generations_flagged_time holds exactly these rows
    f.flagged === undefined ? undefined : f.flagged ? isNotNull(g.guardrailFlags) : isNull(g.guardrailFlags),
    f.from === undefined ? undefined : gte(g.createdAt, f.from),
    f.to === undefined ? undefined : lt(g.createdAt, f.to),
    before === null ? undefined : or(lt(g.createdAt, before.createdAt), and(eq(g.createdAt, before.createdAt), o.textBefore(g.id, before.id))),
  );
}
