// A database made by an earlier release keeps working: its applied migrations are recognised
// by tag, only the new ones run, and its rows (with a reservation left by the old process) survive.

import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSqliteStore } from "../../../src/store/sqlite";
import { migrations } from "../../../src/store/sqlite/migrations.generated";
import { tempDir } from "../../support/gateway";

/** A database as the runner of a release whose last migration was `lastTag` left it. */
function oldDatabase(path: string, lastTag: string): Database {
  const db = new Database(path, { create: true });
  db.exec("CREATE TABLE __migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  for (const m of migrations.slice(0, migrations.findIndex((m) => m.tag === lastTag) + 1)) {
    for (const statement of m.sql.split("--> statement-breakpoint")) if (statement.trim()) db.exec(statement);
    db.query("INSERT INTO __migrations (tag, applied_at) VALUES (?, 1)").run(m.tag);
  }
  return db;
}

test("an earlier release's database: applied history recognised, only new migrations applied, data kept", async () => {
  const dir = tempDir("gw-upgrade-");
  const path = join(dir, "old.db");
  try {
    // what the previous release's runner left behind: its four migrations, by tag
    const old = oldDatabase(path, "0003_byok_and_presets");
    old.exec(`INSERT INTO api_keys (hash, name, label, is_management, workspace_id, created_at) VALUES ('h1', 'kept', 'sk-...1', 0, 'w', 1)`);
    old.exec(`INSERT INTO key_usage (hash, day_key, week_key, month_key, total) VALUES ('h1', '2026-11-22', '2026-11-16', '2026-11', 500)`);
    old.exec(`INSERT INTO reservations (id, key_hash, amount_nanos, created_at) VALUES ('r-old', 'h1', 300, 1)`);
    old.close();

    const store = createSqliteStore(path);
    const check = new Database(path, { readonly: true });
    const tags = (check.query("SELECT tag FROM __migrations ORDER BY tag").all() as Array<{ tag: string }>).map((r) => r.tag);
    check.close();
    expect(tags).toEqual(migrations.map((m) => m.tag));
    expect(await store.ready()).toBe(true);
    expect((await store.keys.get("h1"))?.name).toBe("kept");
    expect((await store.usage.get("h1"))?.total).toBe(500);
    // the old process's reservation predates `held`: releasing everything at start leaves nothing held
    expect(await store.reservations.releaseAll()).toBe(1);
    expect(await store.reservations.held("h1")).toBe(0);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("preset versions written before the format was recorded read back with format null and their config intact", async () => {
  const dir = tempDir("gw-upgrade-");
  const path = join(dir, "old.db");
  try {
    const old = oldDatabase(path, "0004_reservation_leases");
    old.exec(`INSERT INTO preset_versions (id, preset_id, version, config, system_prompt, creator_id, created_at, updated_at)
      VALUES ('v-old', 'p', 1, '{"model":"m","max_output_tokens":5}', 'sp', 'u', 1, 1)`);
    old.close();
    const store = createSqliteStore(path);
    expect(await store.presets.getVersionById("v-old")).toEqual({
      id: "v-old",
      presetId: "p",
      version: 1,
      config: { model: "m", max_output_tokens: 5 },
      systemPrompt: "sp",
      format: null,
      creatorId: "u",
      createdAt: 1,
      updatedAt: 1,
    });
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("generations waiting in the outbox when 0020 moves the sealed payloads to their own table are still claimed with them", async () => {
  const dir = tempDir("gw-upgrade-outbox-");
  const path = join(dir, "old.db");
  try {
    const old = oldDatabase(path, "0019_drop_unused_endpoint_index");
    old.query("INSERT INTO observation_outbox (generation_id, workspace_id, sealed, created_at) VALUES ('gen-1', 'w', ?, 5)").run(new Uint8Array([1, 2, 3]));
    old.query("INSERT INTO observation_outbox (generation_id, workspace_id, sealed, created_at) VALUES ('gen-2', 'w', 'c2VhbGVk', 6)").run();
    old.close();

    const store = createSqliteStore(path);
    const claimed = await store.observationOutbox.claim("me", 10, 100, 10);
    expect(claimed.map(({ seq, generationId, workspaceId, createdAt }) => ({ seq, generationId, workspaceId, createdAt }))).toEqual([
      { seq: 1, generationId: "gen-1", workspaceId: "w", createdAt: 5 },
      { seq: 2, generationId: "gen-2", workspaceId: "w", createdAt: 6 },
    ]);
    expect([...(claimed[0]!.sealed as Uint8Array)]).toEqual([1, 2, 3]);
    expect(claimed[1]!.sealed).toBe("c2VhbGVk");
    await store.observationOutbox.remove([1, 2]);
    const check = new Database(path, { readonly: true });
    expect(check.query("SELECT (SELECT COUNT(*) FROM observation_outbox) + (SELECT COUNT(*) FROM observation_outbox_payloads) AS n").get()).toEqual({ n: 0 });
    check.close();
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
