import { eq, or, type Placeholder } from "drizzle-orm";
import type { workspaces } from "../tables/accounts";
import type { EitherTable, Ordering } from "./shapes";

/** The conditions and order of workspaces. */
export function workspaceQueries(t: EitherTable<typeof workspaces>, o: Ordering) {
  return {
    /** by id or slug (pick the row with `foundByRef`); a placeholder where the statement is prepared once */
    byRef: (ref: string | Placeholder) => or(eq(t.id, ref), eq(t.slug, ref)),
    order: [o.ascValue(t.createdAt), o.ascText(t.id)],
  };
}

/** Of the rows `byRef` found, an id wins over a slug that happens to look like one. */
export const foundByRef = <R extends { id: string }>(rows: R[], ref: string): R | undefined => rows.find((r) => r.id === ref) ?? rows[0];
