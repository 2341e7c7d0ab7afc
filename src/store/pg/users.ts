import { count, eq } from "drizzle-orm";
import { userQueries } from "../queries/users";
import type { UserStore } from "../store";
import type { Conn } from "./client";
import { order } from "./order";
import { users } from "./schema";

export function pgUserStore({ db }: Conn): UserStore {
  const q = userQueries(users, order);
  return {
    async create(user) {
      const record = { ...user, disabled: user.disabled ?? false };
      await db.insert(users).values(record);
      return record;
    },
    async get(id) {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },
    async list(offset, limit) {
      return await db
        .select()
        .from(users)
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset);
    },
    async count() {
      const [row] = await db.select({ n: count() }).from(users);
      return row?.n ?? 0;
    },
    async findByEmail(email) {
      return await db
        .select()
        .from(users)
        .where(q.byEmail(email))
        .orderBy(...q.order);
    },
    async update(id, patch) {
      const [row] = await db.update(users).set(patch).where(eq(users.id, id)).returning();
      return row;
    },
    async delete(id) {
      const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
      return rows.length > 0;
    },
  };
}
