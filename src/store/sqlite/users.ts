import { asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "./client";
import { users } from "./schema";
import type { UserRecord, UserStore } from "../store";

export function sqliteUserStore(db: Db): UserStore {
  const byId = db.select().from(users).where(eq(users.id, sql.placeholder("id"))).prepare();
  return {
    create(user) {
      db.insert(users).values(user).run();
      return user;
    },
    get(id) {
      return byId.get({ id }) as UserRecord | undefined;
    },
    list(offset, limit) {
      return db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(limit).offset(offset).all() as UserRecord[];
    },
    count() {
      return db.select({ n: count() }).from(users).get()?.n ?? 0;
    },
  };
}
