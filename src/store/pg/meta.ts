import { eq } from "drizzle-orm";
import type { MetaStore } from "../store";
import type { Conn } from "./client";
import { meta } from "./schema";

export function pgMetaStore({ db }: Conn): MetaStore {
  return {
    async get(key) {
      const [row] = await db.select({ value: meta.value }).from(meta).where(eq(meta.key, key));
      return row?.value;
    },
    async set(key, value) {
      await db.insert(meta).values({ key, value }).onConflictDoUpdate({ target: meta.key, set: { value } });
    },
  };
}
