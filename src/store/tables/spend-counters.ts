import { nanos, text } from "./kit";

/** The spend counters of a usage row (a key's or a workspace's), after its id column. */
export const spendCounters = () => ({
  dayKey: text("day_key").notNull(),
  weekKey: text("week_key").notNull(),
  monthKey: text("month_key").notNull(),
  total: nanos("total").notNull().default(0),
  day: nanos("day").notNull().default(0),
  week: nanos("week").notNull().default(0),
  month: nanos("month").notNull().default(0),
  byokTotal: nanos("byok_total").notNull().default(0),
  byokDay: nanos("byok_day").notNull().default(0),
  byokWeek: nanos("byok_week").notNull().default(0),
  byokMonth: nanos("byok_month").notNull().default(0),
  /**
   * PostgreSQL: the sum of the owner's open reservations, kept beside the spend so one conditional
   * upsert reserves. Unused on SQLite, where reservations live in the owning process's memory
   * (sqlite/reservation-book.ts); kept there for databases of earlier versions.
   */
  held: nanos("held").notNull().default(0),
});
