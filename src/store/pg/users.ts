import { count, eq, sql } from "drizzle-orm";
import type { Conn } from "./client";
import { ascText, ascValue } from "./order";
import { users } from "./schema";
import type { UserStore } from "../store";

export function pgUserStore({ db }: Conn): UserStore {
  return {
    async create(user) {
      await db.insert(users).values(user);
      return user;
    },
    async get(id) {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },
    async list(offset, limit) {
      return await db.select().from(users).orderBy(ascValue(users.createdAt), ascText(users.id)).limit(limit).offset(offset);
    },
    async count() {
      const [row] = await db.select({ n: count() }).from(users);
      return row?.n ?? 0;
    },
    async findByEmail(email) {
      return await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).orderBy(ascValue(users.createdAt), ascText(users.id));
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
