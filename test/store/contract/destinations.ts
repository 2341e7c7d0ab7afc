/** Contract: observability destinations, soft deleted, their JSON read back exactly. */
import { describe, expect, test } from "bun:test";
import type { DestinationRecord, Store } from "../../../src/store/store";
import { workspace } from "./fixtures";

export const destination = (id: string, workspaceId: string, createdAt: number, extra: Partial<DestinationRecord> = {}): DestinationRecord => ({
  id,
  workspaceId,
  type: "webhook",
  name: `destination ${id}`,
  enabled: true,
  privacyMode: false,
  samplingRate: 1,
  regions: ["global"],
  apiKeyHashes: null,
  filterRules: null,
  broadcastGenerationCost: false,
  broadcastGenerationIdentity: false,
  broadcastGenerationRequestContext: false,
  config: { url: "https://hooks.example.com/otlp", method: "POST" },
  sealedConfig: {},
  createdAt,
  updatedAt: createdAt,
  ...extra,
});

export function destinationsContract(store: () => Store): void {
  describe("observability destinations", () => {
    test("create then get reads every field back exactly, JSON and a fractional sampling rate included", async () => {
      const s = store();
      const full = destination("d1", "w1", 1000, {
        type: "langfuse",
        samplingRate: 0.0001,
        regions: ["global", "europe"],
        apiKeyHashes: ["a".repeat(64)],
        filterRules: {
          enabled: true,
          groups: [
            {
              logic: "or",
              rules: [
                { field: "model", operator: "regex", value: "^gpt-[0-9]+$" },
                { field: "total_cost", operator: "gt", value: 0.5 },
              ],
            },
          ],
        },
        broadcastGenerationCost: true,
        broadcastGenerationIdentity: true,
        broadcastGenerationRequestContext: true,
        privacyMode: true,
        config: { publicKey: "pk-lf-1", secretKey: "sk-l…", baseUrl: "https://cloud.langfuse.com", headers: { "x-a": "…" } },
        sealedConfig: { secretKey: "sealed-1", headers: "sealed-2" },
      });
      expect(await s.destinations.create(full)).toEqual(full);
      expect(await s.destinations.get("d1")).toEqual(full);
      expect(await s.destinations.get("nope")).toBeUndefined();
    });

    test("list and count by workspace, oldest first, paged; countOfType counts one type", async () => {
      const s = store();
      await s.destinations.create(destination("b", "w1", 2000));
      await s.destinations.create(destination("a", "w1", 1000, { type: "grafana" }));
      await s.destinations.create(destination("c", "w1", 2000));
      await s.destinations.create(destination("x", "w2", 500));
      expect((await s.destinations.list("w1", 0, 10)).map((d) => d.id)).toEqual(["a", "b", "c"]);
      expect((await s.destinations.list("w1", 1, 1)).map((d) => d.id)).toEqual(["b"]);
      expect(await s.destinations.count("w1")).toBe(3);
      expect(await s.destinations.count("w3")).toBe(0);
      expect(await s.destinations.countOfType("w1", "webhook")).toBe(2);
      expect(await s.destinations.countOfType("w1", "grafana")).toBe(1);
      expect(await s.destinations.countOfType("w2", "grafana")).toBe(0);
    });

    test("update applies only the patch and updatedAt; nullable JSON goes to null and back", async () => {
      const s = store();
      await s.destinations.create(destination("d1", "w1", 1000, { apiKeyHashes: ["h1"] }));
      const updated = await s.destinations.update(
        "d1",
        { name: "renamed", apiKeyHashes: null, samplingRate: 0.25, config: { url: "https://b.example.com" } },
        5000,
      );
      expect(updated).toEqual(
        destination("d1", "w1", 1000, { name: "renamed", apiKeyHashes: null, samplingRate: 0.25, config: { url: "https://b.example.com" }, updatedAt: 5000 }),
      );
      const back = await s.destinations.update("d1", { apiKeyHashes: ["h2", "h3"], filterRules: { groups: [] } }, 6000);
      expect(back?.apiKeyHashes).toEqual(["h2", "h3"]);
      expect(back?.filterRules).toEqual({ groups: [] });
      expect(back?.name).toBe("renamed");
      expect(await s.destinations.update("nope", { name: "x" }, 7000)).toBeUndefined();
    });

    test("delete is soft and once: the destination is gone from every read, its sealed secrets wiped", async () => {
      const s = store();
      await s.destinations.create(destination("d1", "w1", 1000, { sealedConfig: { apiKey: "sealed" } }));
      await s.destinations.create(destination("d2", "w1", 1000));
      expect(await s.destinations.delete("d1", 2000)).toBe(true);
      expect(await s.destinations.delete("d1", 3000)).toBe(false);
      expect(await s.destinations.delete("nope", 3000)).toBe(false);
      expect(await s.destinations.get("d1")).toBeUndefined();
      expect(await s.destinations.update("d1", { enabled: true }, 4000)).toBeUndefined();
      expect((await s.destinations.list("w1", 0, 10)).map((d) => d.id)).toEqual(["d2"]);
      expect(await s.destinations.count("w1")).toBe(1);
      expect(await s.destinations.countOfType("w1", "webhook")).toBe(1);
      expect((await s.destinations.enabledIn("w1")).map((d) => d.id)).toEqual(["d2"]);
    });

    test("enabledIn: live and enabled destinations of the one workspace", async () => {
      const s = store();
      await s.destinations.create(destination("on", "w1", 1000));
      await s.destinations.create(destination("off", "w1", 1000, { enabled: false }));
      await s.destinations.create(destination("other", "w2", 1000));
      expect((await s.destinations.enabledIn("w1")).map((d) => d.id)).toEqual(["on"]);
      await s.destinations.update("off", { enabled: true }, 2000);
      expect((await s.destinations.enabledIn("w1")).map((d) => d.id)).toEqual(["off", "on"]);
      expect(await s.destinations.enabledIn("w3")).toEqual([]);
    });

    test("a create inside a transaction that fails is rolled back", async () => {
      const s = store();
      const failed = s.transaction(async (tx) => {
        await tx.destinations.create(destination("d1", "w1", 1000));
        expect(await tx.destinations.countOfType("w1", "webhook")).toBe(1);
        throw new Error("abort");
      });
      await expect(failed).rejects.toThrow("abort");
      expect(await s.destinations.get("d1")).toBeUndefined();
    });

    test("deleting a workspace soft-deletes its destinations, secrets wiped, and no other's", async () => {
      const s = store();
      await s.workspaces.create(workspace("w1", 1000));
      await s.workspaces.create(workspace("w2", 1000));
      await s.destinations.create(destination("d1", "w1", 1000, { sealedConfig: { apiKey: "sealed" } }));
      await s.destinations.create(destination("d2", "w2", 1000, { sealedConfig: { apiKey: "kept" } }));
      expect(await s.workspaces.delete("w1", 5000)).toBe(true);
      expect(await s.destinations.get("d1")).toBeUndefined();
      expect(await s.destinations.count("w1")).toBe(0);
      expect((await s.destinations.get("d2"))?.sealedConfig).toEqual({ apiKey: "kept" });
    });
  });
}
