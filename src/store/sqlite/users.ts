import { asc, count, eq } from "drizzle-orm";
import type { Db } from "./client";
import { users } from "./schema";
import type { UserRecord, UserStore } from "../store";

export function sqliteUserStore(db: Db): UserStore {
  return {
    create(user) {
      db.insert(users).values(user).run();
      return user;
    },
    get(id) {
      return db.select().from(users).where(eq(users.id, id)).get() as UserRecord | undefined;
    },
    list(offset, limit) {
      return db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(limit).offset(offset).all() as UserRecord[];
    },
    count() {
      return db.select({ n: count() }).from(users).get()?.n ?? 0;
    },
  };
}
