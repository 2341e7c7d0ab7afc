import type { Database } from "bun:sqlite";
import { eq, sql } from "drizzle-orm";
import type { Db } from "./client";
import { keyUsage, reservations } from "./schema";
import type { ReservationStore } from "../store";
import { keySpend, spendInLimitWindow } from "../../billing/key-figures";

export function sqliteReservationStore(db: Db, sqlite: Database, transaction: <T>(fn: () => T) => T): ReservationStore {
  // prepared once: every request of a key with a limit reserves and releases
  const usageOf = db.select().from(keyUsage).where(eq(keyUsage.hash, sql.placeholder("hash"))).prepare();
  const heldBy = db
    .select({ n: sql<number>`coalesce(sum(${reservations.amountNanos}), 0)` })
    .from(reservations)
    .where(eq(reservations.keyHash, sql.placeholder("hash")))
    .prepare();
  const insert = sqlite.query("INSERT INTO reservations (id, key_hash, amount_nanos, created_at) VALUES ($id, $hash, $amount, $now)");
  const remove = sqlite.query("DELETE FROM reservations WHERE id = $id");
  const held = (hash: string) => heldBy.get({ hash })?.n ?? 0;
  return {
    reserve({ id, key, amountNanos, now }) {
      // one write transaction: the read of spend and reservations and the insert cannot interleave
      return transaction(() => {
        if (key.limitNanos === null) return null;
        const left = key.limitNanos - spendInLimitWindow(key, keySpend(usageOf.get({ hash: key.hash }), now)) - held(key.hash);
        if (left <= 0 || left < amountNanos) return Math.max(0, left);
        insert.run({ id, hash: key.hash, amount: amountNanos, now });
        return null;
      });
    },
    release(id) {
      remove.run({ id });
    },
    held,
    clear() {
      return sqlite.run("DELETE FROM reservations").changes;
    },
  };
}
