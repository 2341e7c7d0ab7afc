// The SQLite preset store: create-or-version, ordering, workspaces, and writers in separate
// processes racing on one slug.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(): { store: Store; path: string } {
  const dir = tempDir("gw-presets-");
  dirs.push(dir);
  const path = join(dir, "gateway.db");
  const store = createSqliteStore(path);
  stores.push(store);
  return { store, path };
}

const add = (store: Store, workspaceId: string, slug: string, now: number, config: Record<string, unknown> = {}) =>
  store.presets.appendVersion({ workspaceId, slug, config, systemPrompt: "sp", format: "openai-chat", creatorUserId: "u1", creatorId: "u1", now });

describe("sqlite preset store", () => {
  test("first append creates the preset; later ones add versions and move the designation", async () => {
    const { store } = open();
    const first = await add(store, "ws1", "p", 1000, { a: 1 });
    expect(first.preset).toEqual({
      id: first.preset.id,
      workspaceId: "ws1",
      slug: "p",
      name: "p",
      description: null,
      status: "active",
      statusUpdatedAt: null,
      designatedVersionId: first.version.id,
      creatorUserId: "u1",
      createdAt: 1000,
      updatedAt: 1000,
    });
    expect(first.version).toEqual({
      id: first.version.id,
      presetId: first.preset.id,
      version: 1,
      config: { a: 1 },
      systemPrompt: "sp",
      format: "openai-chat",
      creatorId: "u1",
      createdAt: 1000,
      updatedAt: 1000,
    });
    const third = [await add(store, "ws1", "p", 2000), await add(store, "ws1", "p", 3000)].at(-1)!;
    expect(third.version.version).toBe(3);
    expect(third.preset).toMatchObject({ id: first.preset.id, createdAt: 1000, updatedAt: 3000, designatedVersionId: third.version.id });
    expect((await store.presets.listVersions(first.preset.id, 0, 10)).map((v) => v.version)).toEqual([1, 2, 3]);
    expect((await store.presets.listVersions(first.preset.id, 1, 1)).map((v) => v.version)).toEqual([2]);
    expect(await store.presets.countVersions(first.preset.id)).toBe(3);
    expect((await store.presets.getVersion(first.preset.id, 2))?.version).toBe(2);
    expect(await store.presets.getVersion(first.preset.id, 4)).toBeUndefined();
  });

  test("slugs are per workspace; lists are most recently updated first, ties by last write", async () => {
    const { store } = open();
    await add(store, "ws1", "a", 1000);
    await add(store, "ws1", "b", 1000);
    await add(store, "ws1", "c", 1000);
    await add(store, "ws1", "a", 1000);
    await add(store, "ws2", "a", 5000);
    expect((await store.presets.list("ws1", 0, 10)).map((p) => p.slug)).toEqual(["a", "c", "b"]);
    expect((await store.presets.list("ws1", 1, 1)).map((p) => p.slug)).toEqual(["c"]);
    expect(await store.presets.count("ws1")).toBe(3);
    expect((await store.presets.list("ws2", 0, 10)).map((p) => p.slug)).toEqual(["a"]);
    expect((await store.presets.find("ws1", "a"))?.id).not.toBe((await store.presets.find("ws2", "a"))?.id);
    expect(await store.presets.find("ws3", "a")).toBeUndefined();
  });

  test("writers in separate processes get consecutive versions with no duplicate", async () => {
    const { store, path } = open();
    const writers = 3;
    const each = 25;
    const startAt = String(Date.now() + 400); // all children start appending at the same moment
    const children = Array.from({ length: writers }, (_, i) =>
      Bun.spawn(["bun", join(import.meta.dir, "race-writer.ts"), path, "ws1", "raced", String(each), `w${i}`], {
        env: { ...process.env, START_AT: startAt },
        stderr: "pipe",
      }),
    );
    const codes = await Promise.all(children.map((c) => c.exited));
    const errors = await Promise.all(children.map((c) => new Response(c.stderr).text()));
    expect({ codes, errors }).toEqual({ codes: Array(writers).fill(0), errors: Array(writers).fill("") });
    const preset = (await store.presets.find("ws1", "raced"))!;
    const versions = await store.presets.listVersions(preset.id, 0, 1000);
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: writers * each }, (_, i) => i + 1));
    expect((await store.presets.getVersionById(preset.designatedVersionId!))?.version).toBe(writers * each);
    // each writer's own versions keep its order
    for (let w = 0; w < writers; w++) {
      const mine = versions.filter((v) => v.config.writer === `w${w}`).map((v) => v.config.i);
      expect(mine).toEqual(Array.from({ length: each }, (_, i) => i));
    }
    expect(await store.presets.count("ws1")).toBe(1);
  });
});
