import type { Database } from "bun:sqlite";
import { eq, sql } from "drizzle-orm";
import type { Db } from "./client";
import { keyUsage, reservations } from "./schema";
import type { ReservationStore } from "../store";
import { keySpend, spendInLimitWindow } from "../../billing/key-figures";

export function sqliteReservationStore(db: Db, sqlite: Database): ReservationStore {
  const heldBy = (keyHash: string) =>
    db.select({ n: sql<number>`coalesce(sum(${reservations.amountNanos}), 0)` }).from(reservations).where(eq(reservations.keyHash, keyHash)).get()?.n ?? 0;
  return {
    reserve({ id, key, amountNanos, now }) {
      // BEGIN IMMEDIATE: the read of spend and reservations and the insert are one serialised step
      return sqlite
        .transaction(() => {
          if (key.limitNanos === null) return null;
          const usage = db.select().from(keyUsage).where(eq(keyUsage.hash, key.hash)).get();
          const left = key.limitNanos - spendInLimitWindow(key, keySpend(usage, now)) - heldBy(key.hash);
          if (left <= 0 || left < amountNanos) return Math.max(0, left);
          db.insert(reservations).values({ id, keyHash: key.hash, amountNanos, createdAt: now }).run();
          return null;
        })
        .immediate();
    },
    release(id) {
      db.delete(reservations).where(eq(reservations.id, id)).run();
    },
    held: heldBy,
    clear() {
      return sqlite.run("DELETE FROM reservations").changes;
    },
  };
}
