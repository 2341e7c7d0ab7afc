import { sql } from "drizzle-orm";
import type { users } from "../tables/accounts";
import type { EitherTable, Ordering } from "./shapes";

export function userQueries(t: EitherTable<typeof users>, o: Ordering) {
  return {
    /** the same email whatever its case (JS lower-cases the value, the database the column) */
    byEmail: (email: string) => sql`lower(${t.email}) = ${email.toLowerCase()}`,
    order: [o.ascValue(t.createdAt), o.ascText(t.id)],
  };
}
