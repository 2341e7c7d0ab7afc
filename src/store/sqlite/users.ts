import { count, eq, sql } from "drizzle-orm";
import { userQueries } from "../queries/users";
import type { UserRecord, UserStore } from "../store";
import type { Db, WriteStep } from "./client";
import { order } from "./order";
import { users } from "./schema";

export function sqliteUserStore(db: Db, write: WriteStep): UserStore {
  const q = userQueries(users, order);
  const byId = db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare();
  return {
    create: (user) =>
      write(() => {
        const record = { ...user, disabled: user.disabled ?? false };
        db.insert(users).values(record).run();
        return record;
      }),
    async get(id) {
      return byId.get({ id }) as UserRecord | undefined;
    },
    async list(offset, limit) {
      return db
        .select()
        .from(users)
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset)
        .all() as UserRecord[];
    },
    async count() {
      return db.select({ n: count() }).from(users).get()?.n ?? 0;
    },
    async findByEmail(email) {
      return db
        .select()
        .from(users)
        .where(q.byEmail(email))
        .orderBy(...q.order)
        .all() as UserRecord[];
    },
    update: (id, patch) => write(() => db.update(users).set(patch).where(eq(users.id, id)).returning().get() as UserRecord | undefined),
    delete: (id) => write(() => db.delete(users).where(eq(users.id, id)).returning({ id: users.id }).get() !== undefined),
  };
}
