// The store keeps no policy: a preset write that keeps colliding ends in the store's own
// PresetWriteConflict, which the presets service turns into the API's 409
// (test/e2e/presets/write-conflict.test.ts). A trigger makes every insert of a version violate a
// unique index, as a writer bypassing the store's lock would.

import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { GatewayError } from "../../../src/errors";
import { createSqliteStore } from "../../../src/store/sqlite";
import { PresetWriteConflict, type Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function colliding(): Store {
  const dir = tempDir("gw-preset-conflict-");
  dirs.push(dir);
  const path = join(dir, "gateway.db");
  const store = createSqliteStore(path);
  stores.push(store);
  const db = new Database(path);
  db.exec("CREATE TABLE collide (n INTEGER UNIQUE); INSERT INTO collide VALUES (1)");
  db.exec("CREATE TRIGGER preset_versions_collide BEFORE INSERT ON preset_versions BEGIN INSERT INTO collide VALUES (1); END");
  db.close();
  return store;
}

test("appendVersion gives up with PresetWriteConflict, not an HTTP error, and leaves nothing behind", async () => {
  const store = colliding();
  const err = await store.presets
    .appendVersion({ workspaceId: "ws1", slug: "racy", config: {}, systemPrompt: null, format: "openai-chat", creatorUserId: null, creatorId: null, now: 1 })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PresetWriteConflict);
  expect(err).not.toBeInstanceOf(GatewayError);
  expect((err as PresetWriteConflict).slug).toBe("racy");
  expect(await store.presets.find("ws1", "racy")).toBeUndefined();
});
