/** Contract: the audit log's rows, kept in order and found by the listing's filters, purged from the oldest. */
import { describe, expect, test } from "bun:test";
import type { AuditEventRecord, Store } from "../../../src/store/store";
import { NOW } from "./fixtures";

const event = (seq: number, extra: Partial<AuditEventRecord> = {}): AuditEventRecord => ({
  seq,
  createdAt: NOW + seq * 1000,
  actorType: "key",
  actorId: seq % 2 ? "key-a" : "key-b",
  actorLabel: "Admin",
  action: seq % 3 ? "key.update" : "workspace.create",
  targetType: "key",
  targetId: `target-${seq % 4}`,
  workspaceId: "ws",
  ip: "192.0.2.7",
  userAgent: "curl/8",
  changes: JSON.stringify({ name: { from: `n${seq - 1}`, to: `n${seq}` } }),
  prevHash: `prev-${seq}`,
  hash: `hash-${seq}`,
  ...extra,
});

const seqs = (events: AuditEventRecord[]) => events.map((e) => e.seq);

export function auditContract(store: () => Store): void {
  describe("audit log", () => {
    test("events read back exactly; last() is the newest; inOrder pages oldest first", async () => {
      const s = store();
      expect(await s.audit.last()).toBeUndefined();
      const stored = [1, 2, 3, 4, 5].map((n) => event(n));
      for (const e of stored) await s.transaction((tx) => tx.audit.append(e));
      await s.audit.append(event(6, { actorId: null, actorLabel: null, targetId: null, workspaceId: null, ip: null, userAgent: null, actorType: "system" }));
      expect(await s.audit.last()).toEqual(
        event(6, { actorId: null, actorLabel: null, targetId: null, workspaceId: null, ip: null, userAgent: null, actorType: "system" }),
      );
      expect(await s.audit.inOrder(-1, 100)).toEqual([...stored, (await s.audit.last())!]);
      expect(seqs(await s.audit.inOrder(2, 2))).toEqual([3, 4]);
    });

    test("list: newest first, each filter narrows, since inclusive and until exclusive, beforeSeq pages", async () => {
      const s = store();
      for (let n = 1; n <= 12; n++) await s.audit.append(event(n));
      expect(seqs(await s.audit.list({}, 5))).toEqual([12, 11, 10, 9, 8]);
      expect(seqs(await s.audit.list({ beforeSeq: 8 }, 5))).toEqual([7, 6, 5, 4, 3]);
      expect(seqs(await s.audit.list({ actorId: "key-a" }, 100))).toEqual([11, 9, 7, 5, 3, 1]);
      expect(seqs(await s.audit.list({ action: "workspace.create" }, 100))).toEqual([12, 9, 6, 3]);
      expect(seqs(await s.audit.list({ targetId: "target-1" }, 100))).toEqual([9, 5, 1]);
      expect(seqs(await s.audit.list({ since: NOW + 4000, until: NOW + 7000 }, 100))).toEqual([6, 5, 4]);
      expect(seqs(await s.audit.list({ actorId: "key-b", action: "workspace.create", beforeSeq: 12 }, 100))).toEqual([6]);
      // any of several actions (the console's filter by kind of resource)
      expect(seqs(await s.audit.list({ actions: ["workspace.create", "key.delete"], beforeSeq: 10 }, 100))).toEqual([9, 6, 3]);
      expect(seqs(await s.audit.list({ actions: ["key.update", "workspace.create"], actorId: "key-b" }, 3))).toEqual([12, 10, 8]);
      expect(await s.audit.list({ actions: ["key.delete"] }, 100)).toEqual([]);
    });

    test("an append inside a transaction that fails is rolled back", async () => {
      const s = store();
      await s.audit.append(event(1));
      await expect(
        s.transaction(async (tx) => {
          await tx.audit.append(event(2));
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(seqs(await s.audit.inOrder(-1, 10))).toEqual([1]);
    });

    test("purgeBefore deletes up to the newest event older than the time and returns it with the count", async () => {
      const s = store();
      for (let n = 1; n <= 6; n++) await s.audit.append(event(n));
      expect(await s.audit.purgeBefore(NOW + 1000)).toBeUndefined();
      expect(await s.transaction((tx) => tx.audit.purgeBefore(NOW + 3500))).toEqual({ newest: event(3), deleted: 3 });
      expect(seqs(await s.audit.inOrder(-1, 10))).toEqual([4, 5, 6]);
      expect(await s.audit.purgeBefore(NOW + 3500)).toBeUndefined();
    });
  });
}
