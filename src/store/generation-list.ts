import { and, eq, gte, isNull, lt, ne, or, type AnyColumn, type SQL } from "drizzle-orm";
import type { GenerationCursor, GenerationFilter } from "./store";

/** The generations columns a listing filters on, the same in both dialects' tables. */
type ListedColumns = Record<"workspaceId" | "keyHash" | "model" | "providerName" | "finishReason" | "cancelled" | "createdAt", AnyColumn>;

/**
 * A listing's filter and keyset position as one condition (indexed by created_at, and by
 * workspace_id or key_hash with it). `idBefore` compares ids as the dialect orders them.
 */
export function generationListCondition(g: ListedColumns, idBefore: (id: string) => SQL, f: GenerationFilter, before: GenerationCursor | null): SQL | undefined {
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
    f.from === undefined ? undefined : gte(g.createdAt, f.from),
    f.to === undefined ? undefined : lt(g.createdAt, f.to),
    before === null ? undefined : or(lt(g.createdAt, before.createdAt), and(eq(g.createdAt, before.createdAt), idBefore(before.id))),
  );
}
