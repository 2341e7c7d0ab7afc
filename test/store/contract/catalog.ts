/** Contract: BYOK credentials and presets. */
import { describe, expect, test } from "bun:test";
import { type ByokRecord, PRESET_FORMATS, type PresetFormat, type Store } from "../../../src/store/store";
import { credential } from "./fixtures";

const stored = (cred: Omit<ByokRecord, "sortOrder">, sortOrder: number): ByokRecord => ({ ...cred, sortOrder });

export function catalogContract(store: () => Store): void {
  describe("byok credentials", () => {
    test("create numbers sort_order per workspace and provider among live credentials; get reads back exactly", async () => {
      const s = store();
      const a = credential("a", "w1", "openai", 1000, {
        name: "main",
        isFallback: true,
        isRequired: true,
        isByokOnly: true,
        declaredZdr: false,
        allowedModels: ["openai/gpt-5", "é"],
        allowedUserIds: [],
        allowedApiKeyHashes: ["h1"],
        updatedAt: 1500,
      });
      expect(await s.byok.create(a)).toEqual(stored(a, 0));
      expect(await s.byok.get("a")).toEqual(stored(a, 0));
      expect((await s.byok.create(credential("b", "w1", "openai", 1001))).sortOrder).toBe(1);
      expect((await s.byok.create(credential("c", "w1", "anthropic", 1002))).sortOrder).toBe(0);
      expect((await s.byok.create(credential("d", null, "openai", 1003))).sortOrder).toBe(0);
      expect((await s.byok.create(credential("e", "w2", "openai", 1004, { declaredZdr: true }))).sortOrder).toBe(0);
      expect(await s.byok.delete("b", 2000)).toBe(true);
      expect((await s.byok.create(credential("f", "w1", "openai", 1005))).sortOrder).toBe(1);
      expect(await s.byok.get("nope")).toBeUndefined();
    });

    test("list is by workspace (global first), provider, sort_order; filtered, paged, counted", async () => {
      const s = store();
      for (const c of [
        credential("w1-o-0", "w1", "openai", 1),
        credential("w1-a-0", "w1", "anthropic", 2),
        credential("g-o-0", null, "openai", 3),
        credential("w1-o-1", "w1", "openai", 4),
        credential("w2-o-0", "w2", "openai", 5),
        credential("gone", "w1", "openai", 6),
      ])
        await s.byok.create(c);
      await s.byok.delete("gone", 10);
      const ids = async (filter: { workspaceId?: string; provider?: string }, offset = 0, limit = 10) =>
        (await s.byok.list(filter, offset, limit)).map((c) => c.id);
      expect(await ids({})).toEqual(["g-o-0", "w1-a-0", "w1-o-0", "w1-o-1", "w2-o-0"]);
      expect(await ids({ workspaceId: "w1" })).toEqual(["w1-a-0", "w1-o-0", "w1-o-1"]);
      expect(await ids({ provider: "openai" })).toEqual(["g-o-0", "w1-o-0", "w1-o-1", "w2-o-0"]);
      expect(await ids({ workspaceId: "w1", provider: "openai" })).toEqual(["w1-o-0", "w1-o-1"]);
      expect(await ids({}, 1, 2)).toEqual(["w1-a-0", "w1-o-0"]);
      expect(await s.byok.count({})).toBe(5);
      expect(await s.byok.count({ workspaceId: "w1" })).toBe(3);
      expect(await s.byok.count({ workspaceId: "w1", provider: "openai" })).toBe(2);
      expect(await s.byok.count({ provider: "nope" })).toBe(0);
    });

    test("update applies the patch (lists to null and back) and updatedAt; deleted or unknown is undefined", async () => {
      const s = store();
      const cred = credential("c1", "w1", "openai", 1000, { allowedModels: ["m"] });
      await s.byok.create(cred);
      const patch = {
        name: "n",
        label: "l",
        encryptedKey: "k2",
        disabled: true,
        isFallback: true,
        isRequired: true,
        isByokOnly: true,
        declaredZdr: true,
        allowedModels: null,
        allowedUserIds: ["u1"],
        allowedApiKeyHashes: [],
      };
      const expected = stored({ ...cred, ...patch, updatedAt: 2000 }, 0);
      expect(await s.byok.update("c1", patch, 2000)).toEqual(expected);
      expect(await s.byok.get("c1")).toEqual(expected);
      expect(await s.byok.update("c1", { allowedModels: ["a", "b"] }, 3000)).toEqual({ ...expected, allowedModels: ["a", "b"], updatedAt: 3000 });
      expect(await s.byok.delete("c1", 4000)).toBe(true);
      expect(await s.byok.delete("c1", 4000)).toBe(false);
      expect(await s.byok.update("c1", { name: "x" }, 5000)).toBeUndefined();
      expect(await s.byok.update("nope", { name: "x" }, 5000)).toBeUndefined();
      expect(await s.byok.delete("nope", 5000)).toBe(false);
    });

    test("usable: enabled live credentials of the workspace and global ones, by sort_order, creation time, id", async () => {
      const s = store();
      for (const c of [
        credential("own-o-0", "w1", "openai", 5),
        credential("global-o-0", null, "openai", 1),
        credential("own-o-1", "w1", "openai", 2),
        credential("own-a-0", "w1", "anthropic", 5),
        credential("off", "w1", "openai", 3, { disabled: true }),
        credential("gone", null, "x", 3),
        credential("other", "w2", "openai", 0),
      ])
        await s.byok.create(c);
      await s.byok.delete("gone", 10);
      expect((await s.byok.usable("w1")).map((c) => c.id)).toEqual(["global-o-0", "own-a-0", "own-o-0", "own-o-1"]);
      expect((await s.byok.usable("w3")).map((c) => c.id)).toEqual(["global-o-0"]);
    });
  });

  describe("presets", () => {
    const add = (s: Store, workspaceId: string, slug: string, now: number, config: Record<string, unknown> = {}, format: PresetFormat = "openai-chat") =>
      s.presets.appendVersion({ workspaceId, slug, config, systemPrompt: "sp", format, creatorUserId: "u1", creatorId: "u1", now });

    test("the first append creates the preset; later ones add versions and move the designation", async () => {
      const s = store();
      const config = { z: 1, a: { "é\u2028": [true, null] }, model: "acme/alpha" };
      const first = await add(s, "ws1", "p", 1000, config);
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
        config,
        systemPrompt: "sp",
        format: "openai-chat",
        creatorId: "u1",
        createdAt: 1000,
        updatedAt: 1000,
      });
      expect(JSON.stringify((await s.presets.getVersionById(first.version.id))?.config)).toBe(JSON.stringify(config));
      await add(s, "ws1", "p", 2000);
      const third = await add(s, "ws1", "p", 3000);
      expect(third.version.version).toBe(3);
      expect(third.preset).toEqual({ ...first.preset, updatedAt: 3000, designatedVersionId: third.version.id });
      expect(await s.presets.find("ws1", "p")).toEqual(third.preset);
      expect((await s.presets.listVersions(first.preset.id, 0, 10)).map((v) => v.version)).toEqual([1, 2, 3]);
      expect(await s.presets.listVersions(first.preset.id, 2, 5)).toEqual([third.version]);
      expect(await s.presets.countVersions(first.preset.id)).toBe(3);
      expect(await s.presets.countVersions("nope")).toBe(0);
      expect(await s.presets.getVersion(first.preset.id, 1)).toEqual(first.version);
      expect(await s.presets.getVersion(first.preset.id, 4)).toBeUndefined();
      expect(await s.presets.getVersionById(third.version.id)).toEqual(third.version);
      expect(await s.presets.getVersionById("nope")).toBeUndefined();
    });

    test("each version keeps the format that created it, through every read", async () => {
      const s = store();
      const written = [];
      for (const [i, format] of [...PRESET_FORMATS, "openai-chat" as const].entries())
        written.push((await add(s, "ws1", "f", 1000 + i, { i }, format)).version);
      expect(written.map((v) => v.format)).toEqual([...PRESET_FORMATS, "openai-chat"]);
      const presetId = written[0]!.presetId;
      expect(await s.presets.listVersions(presetId, 0, 10)).toEqual(written);
      for (const version of written) {
        expect(await s.presets.getVersion(presetId, version.version)).toEqual(version);
        expect(await s.presets.getVersionById(version.id)).toEqual(version);
      }
    });

    test("slugs are per workspace; lists are most recently updated first, ties by last write, paged", async () => {
      const s = store();
      await add(s, "ws1", "a", 1000);
      await add(s, "ws1", "b", 1000);
      await add(s, "ws1", "c", 1000);
      await add(s, "ws1", "a", 1000);
      await add(s, "ws1", "d", 500);
      await add(s, "ws2", "a", 5000);
      expect((await s.presets.list("ws1", 0, 10)).map((p) => p.slug)).toEqual(["a", "c", "b", "d"]);
      expect(await s.presets.list("ws1", 1, 1)).toEqual([(await s.presets.find("ws1", "c"))!]);
      expect(await s.presets.count("ws1")).toBe(4);
      expect(await s.presets.count("ws3")).toBe(0);
      expect((await s.presets.list("ws2", 0, 10)).map((p) => p.slug)).toEqual(["a"]);
      expect((await s.presets.find("ws1", "a"))?.id).not.toBe((await s.presets.find("ws2", "a"))?.id);
      expect(await s.presets.find("ws3", "a")).toBeUndefined();
    });

    test("20 racing appends get versions 1..20 and the last one is designated", async () => {
      const s = store();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => add(s, "ws1", "raced", 1000 + i, { i })));
      expect(results.map((r) => r.version.version).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(new Set(results.map((r) => r.preset.id)).size).toBe(1);
      const preset = (await s.presets.find("ws1", "raced"))!;
      const versions = await s.presets.listVersions(preset.id, 0, 100);
      expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect((await s.presets.getVersionById(preset.designatedVersionId!))?.version).toBe(20);
      expect(await s.presets.count("ws1")).toBe(1);
    });
  });
}
