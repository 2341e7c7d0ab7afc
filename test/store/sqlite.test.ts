// The store contract on the SQLite dialect, a new database file for every test.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSqliteStore } from "../../src/store/sqlite";
import { tempDir } from "../support/gateway";
import { storeContract } from "./contract";

storeContract("sqlite", async () => {
  const dir = tempDir("gw-store-");
  const store = await createSqliteStore(join(dir, "gateway.db"));
  return {
    store,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
