/** Contract: the job queue (enqueue in a transaction, lease, renew, complete, fail, release, retry, stats). */
import { describe, expect, test } from "bun:test";
import type { JobRecord, NewJob } from "../../../src/store/job-store";
import type { Store } from "../../../src/store/store";

const KINDS = ["a", "b"];
const job = (id: string, extra: Partial<NewJob> = {}): NewJob => ({ id, kind: "a", payload: { n: id }, runAt: 100, now: 50, ...extra });
const lease = (s: Store, owner: string, now: number, limit = 10, kinds = KINDS) => s.jobs.lease({ owner, now, leaseMs: 1000, limit, kinds });

export function jobContract(store: () => Store): void {
  describe("jobs", () => {
    test("enqueue stores a pending job and returns it as stored; get reads it back", async () => {
      const s = store();
      const stored = await s.jobs.enqueue(job("j1", { payload: { deep: [1, "x", null, { y: true }] } }));
      const expected: JobRecord = {
        id: "j1",
        kind: "a",
        key: null,
        payload: { deep: [1, "x", null, { y: true }] },
        state: "pending",
        runAt: 100,
        attempts: 0,
        leaseOwner: null,
        leaseExpiresAt: null,
        lastError: null,
        createdAt: 50,
        updatedAt: 50,
      };
      expect(stored).toEqual(expected);
      expect(await s.jobs.get("j1")).toEqual(expected);
      expect(await s.jobs.get("nope")).toBeUndefined();
    });

    test("a key already stored is enqueued once: the second call returns the first job", async () => {
      const s = store();
      const first = await s.jobs.enqueue(job("j1", { key: "video-1-completed" }));
      const second = await s.jobs.enqueue(job("j2", { key: "video-1-completed", payload: "other" }));
      expect(second).toEqual(first);
      expect(await s.jobs.count({})).toBe(1);
      // jobs without a key never collide
      await s.jobs.enqueue(job("j3"));
      await s.jobs.enqueue(job("j4"));
      expect(await s.jobs.count({})).toBe(3);
    });

    test("enqueued inside a transaction: stored with the change on commit, gone with it on rollback", async () => {
      const s = store();
      await s.transaction(async (tx) => {
        await tx.meta.set("video", "completed");
        await tx.jobs.enqueue(job("kept"));
      });
      expect((await s.jobs.get("kept"))?.state).toBe("pending");
      const boom = new Error("boom");
      await expect(
        s.transaction(async (tx) => {
          await tx.meta.set("video", "failed");
          await tx.jobs.enqueue(job("lost"));
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await s.jobs.get("lost")).toBeUndefined();
      expect(await s.meta.get("video")).toBe("completed");
      expect(await s.jobs.count({})).toBe(1);
    });

    test("lease takes due jobs of the given kinds, earliest first, up to the limit, and counts the attempt", async () => {
      const s = store();
      await s.jobs.enqueue(job("late", { runAt: 300 }));
      await s.jobs.enqueue(job("early", { runAt: 100 }));
      await s.jobs.enqueue(job("middle", { runAt: 200 }));
      await s.jobs.enqueue(job("future", { runAt: 10_000 }));
      await s.jobs.enqueue(job("other-kind", { kind: "c", runAt: 100 }));
      const leased = await lease(s, "w1", 500, 2);
      expect(leased.map((j) => j.id)).toEqual(["early", "middle"]);
      expect(leased[0]).toMatchObject({ state: "running", leaseOwner: "w1", leaseExpiresAt: 1500, attempts: 1, updatedAt: 500, runAt: 100 });
      expect((await lease(s, "w2", 500)).map((j) => j.id)).toEqual(["late"]);
      expect(await lease(s, "w3", 500)).toEqual([]);
      expect((await lease(s, "w3", 500, 10, ["c"])).map((j) => j.id)).toEqual(["other-kind"]);
    });

    test("lease merges pending jobs and ended leases by run_at, then id, behind a backlog of later jobs", async () => {
      const s = store();
      await s.jobs.enqueueMany(Array.from({ length: 300 }, (_, i) => job(`backlog-${String(i).padStart(3, "0")}`, { runAt: 400 + i })));
      await s.jobs.enqueue(job("pending-b", { runAt: 100 }));
      await s.jobs.enqueue(job("pending-a", { runAt: 100 }));
      await s.jobs.enqueue(job("ended-lease", { runAt: 90 }));
      await s.jobs.enqueue(job("held-lease", { runAt: 80 }));
      await s.jobs.enqueue(job("ended-later", { kind: "b", runAt: 402 }));
      expect((await lease(s, "dead", 95, 2)).map((j) => j.id)).toEqual(["held-lease", "ended-lease"]);
      expect((await lease(s, "dead", 402, 10, ["b"])).map((j) => j.id)).toEqual(["ended-later"]);
      expect(await s.jobs.renew("dead", ["held-lease"], 100_000)).toEqual(["held-lease"]);
      // at 2000 every pending job is due, and the leases of `ended-lease` and `ended-later` have ended
      const first = await lease(s, "w2", 2000, 5);
      expect(first.map((j) => [j.id, j.attempts])).toEqual([
        ["ended-lease", 2],
        ["pending-a", 1],
        ["pending-b", 1],
        ["backlog-000", 1],
        ["backlog-001", 1],
      ]);
      // a tie on run_at goes by id, across pending jobs and ended leases
      expect((await lease(s, "w2", 2000, 3)).map((j) => [j.id, j.attempts])).toEqual([
        ["backlog-002", 1],
        ["ended-later", 2],
        ["backlog-003", 1],
      ]);
    });

    test("a lease that ended (its process died) is taken again, attempts counted; renew keeps it", async () => {
      const s = store();
      await s.jobs.enqueue(job("j1"));
      await s.jobs.enqueue(job("j2"));
      await lease(s, "dead-process", 100);
      expect(await s.jobs.renew("dead-process", ["j2", "unknown"], 5000)).toEqual(["j2"]);
      expect(await s.jobs.renew("somebody-else", ["j1"], 5000)).toEqual([]);
      // j1's lease ended at 1100; j2's was renewed to 5000
      const again = await lease(s, "w2", 1101);
      expect(again.map((j) => [j.id, j.attempts, j.leaseOwner])).toEqual([["j1", 2, "w2"]]);
      // the old owner lost it: its completion is refused and changes nothing
      expect(await s.jobs.complete("j1", "dead-process", 1200)).toBe(false);
      expect((await s.jobs.get("j1"))?.state).toBe("running");
      expect(await s.jobs.nextDue(KINDS)).toBe(2101);
    });

    test("complete: done, or pending again at the next run with attempts reset (recurring)", async () => {
      const s = store();
      await s.jobs.enqueue(job("once"));
      await s.jobs.enqueue(job("recurring"));
      await lease(s, "w", 100);
      expect(await s.jobs.complete("once", "w", 150)).toBe(true);
      expect(await s.jobs.complete("recurring", "w", 150, 60_150)).toBe(true);
      expect(await s.jobs.get("once")).toMatchObject({ state: "done", leaseOwner: null, leaseExpiresAt: null, attempts: 1, updatedAt: 150 });
      expect(await s.jobs.get("recurring")).toMatchObject({ state: "pending", runAt: 60_150, attempts: 0, leaseOwner: null });
      expect(await s.jobs.complete("once", "w", 160)).toBe(false);
      expect(await s.jobs.nextDue(KINDS)).toBe(60_150);
    });

    test("completeMany: each as complete, in one call; only the owner's running jobs; counted by kind", async () => {
      const s = store();
      for (const id of ["a1", "a2", "recurring", "theirs"]) await s.jobs.enqueue(job(id));
      await s.jobs.enqueue(job("b1", { kind: "b", runAt: 200 }));
      await lease(s, "w", 100, 3);
      await lease(s, "other", 200);
      expect((await s.jobs.get("theirs"))?.leaseOwner).toBe("other");
      const held = await s.jobs.completeMany("w", [{ id: "a1" }, { id: "a2" }, { id: "recurring", nextRunAt: 9000 }, { id: "theirs" }, { id: "unknown" }], 150);
      expect(held.sort()).toEqual(["a1", "a2", "recurring"]);
      expect(await s.jobs.get("a1")).toMatchObject({ state: "done", leaseOwner: null, leaseExpiresAt: null, attempts: 1, updatedAt: 150, runAt: 100 });
      expect(await s.jobs.get("recurring")).toMatchObject({ state: "pending", runAt: 9000, attempts: 0, leaseOwner: null });
      expect(await s.jobs.get("theirs")).toMatchObject({ state: "running", leaseOwner: "other" });
      expect(await s.jobs.completeMany("w", [{ id: "a1" }], 160)).toEqual([]);
      expect(await s.jobs.completeMany("w", [], 160)).toEqual([]);
      expect(await s.jobs.completeMany("other", [{ id: "b1" }, { id: "theirs" }], 170)).toEqual(expect.arrayContaining(["b1", "theirs"]));
      expect((await s.jobs.stats(200)).outcomes).toEqual([
        { kind: "a", outcome: "succeeded", count: 4 },
        { kind: "b", outcome: "succeeded", count: 1 },
      ]);
    });

    test("completeMany with dropPayload: the done job's payload becomes null; a recurring one and a failed one keep theirs", async () => {
      const s = store();
      for (const id of ["dropped", "kept", "recurring", "failed"]) await s.jobs.enqueue(job(id, { payload: { sealed: `content of ${id}` } }));
      await lease(s, "w1", 100);
      const done = await s.jobs.completeMany(
        "w1",
        [{ id: "dropped", dropPayload: true }, { id: "kept" }, { id: "recurring", nextRunAt: 900, dropPayload: true }],
        150,
      );
      expect(done.sort()).toEqual(["dropped", "kept", "recurring"]);
      expect(await s.jobs.fail("failed", "w1", { now: 160, retryAt: null, error: "boom" })).toBe(true);
      expect(await s.jobs.get("dropped")).toMatchObject({ state: "done", payload: null });
      expect(await s.jobs.get("kept")).toMatchObject({ state: "done", payload: { sealed: "content of kept" } });
      expect(await s.jobs.get("recurring")).toMatchObject({ state: "pending", runAt: 900, payload: { sealed: "content of recurring" } });
      expect(await s.jobs.get("failed")).toMatchObject({ state: "dead", payload: { sealed: "content of failed" } });
    });

    test("enqueueMany: each as enqueue, in order, in one step; inside a transaction it rolls back with it", async () => {
      const s = store();
      await s.jobs.enqueue(job("old", { key: "k-old" }));
      const stored = await s.jobs.enqueueMany([job("m1"), job("again", { key: "k-old" }), job("m2", { attempted: { error: "boom", retryAt: 900 } })]);
      expect(stored.map((j) => [j.id, j.state, j.attempts, j.lastError])).toEqual([
        ["m1", "pending", 0, null],
        ["old", "pending", 0, null],
        ["m2", "pending", 1, "boom"],
      ]);
      expect(await s.jobs.enqueueMany([])).toEqual([]);
      await expect(
        s.transaction(async (tx) => {
          await tx.jobs.enqueueMany([job("lost1"), job("lost2")]);
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await s.jobs.get("lost1")).toBeUndefined();
      expect(await s.jobs.count({})).toBe(3);
    });

    test("enqueued after an unstored attempt with a retry: pending at retryAt, attempts 1, its error; leasable once due; counted failed", async () => {
      const s = store();
      const stored = await s.jobs.enqueue(job("tried", { runAt: 100, now: 100, attempted: { error: "HTTP 503", retryAt: 5100 } }));
      const expected: JobRecord = {
        id: "tried",
        kind: "a",
        key: null,
        payload: { n: "tried" },
        state: "pending",
        runAt: 5100,
        attempts: 1,
        leaseOwner: null,
        leaseExpiresAt: null,
        lastError: "HTTP 503",
        createdAt: 100,
        updatedAt: 100,
      };
      expect(stored).toEqual(expected);
      expect(await s.jobs.get("tried")).toEqual(expected);
      expect(await lease(s, "w", 5099)).toEqual([]);
      expect((await lease(s, "w", 5100)).map((j) => [j.id, j.state, j.attempts, j.leaseOwner])).toEqual([["tried", "running", 2, "w"]]);
      expect((await s.jobs.stats(6000)).outcomes).toEqual([{ kind: "a", outcome: "failed", count: 1 }]);
    });

    test("enqueued after an unstored attempt without a retry: dead at its runAt, counted dead; enqueueMany alike", async () => {
      const s = store();
      const stored = await s.jobs.enqueueMany([
        job("given-up", { runAt: 100, now: 100, attempted: { error: "HTTP 410", retryAt: null } }),
        job("plain"),
        job("retried", { kind: "b", now: 100, attempted: { error: "timeout", retryAt: 700 } }),
      ]);
      expect(stored.map((j) => [j.id, j.state, j.runAt, j.attempts, j.lastError])).toEqual([
        ["given-up", "dead", 100, 1, "HTTP 410"],
        ["plain", "pending", 100, 0, null],
        ["retried", "pending", 700, 1, "timeout"],
      ]);
      expect(await s.jobs.get("given-up")).toMatchObject({
        state: "dead",
        runAt: 100,
        attempts: 1,
        lastError: "HTTP 410",
        leaseOwner: null,
        leaseExpiresAt: null,
        updatedAt: 100,
      });
      expect((await lease(s, "w", 10_000)).map((j) => j.id)).toEqual(["plain", "retried"]);
      expect((await s.jobs.stats(10_000)).outcomes).toEqual([
        { kind: "a", outcome: "dead", count: 1 },
        { kind: "b", outcome: "failed", count: 1 },
      ]);
    });

    test("an unstored attempt whose key or id is stored already: the stored job is returned, nothing stored or counted", async () => {
      const s = store();
      const first = await s.jobs.enqueue(job("j1", { key: "once" }));
      const failed = { error: "boom", retryAt: 900 };
      expect(await s.jobs.enqueue(job("j2", { key: "once", attempted: failed }))).toEqual(first);
      expect(await s.jobs.enqueue(job("j1", { attempted: { error: "boom", retryAt: null } }))).toEqual(first);
      expect(await s.jobs.enqueueMany([job("j3", { key: "once", attempted: failed })])).toEqual([first]);
      expect(await s.jobs.count({})).toBe(1);
      expect((await s.jobs.stats(1000)).outcomes).toEqual([]);
      // stored once, counted once
      await s.jobs.enqueue(job("j4", { attempted: failed }));
      await s.jobs.enqueue(job("j4", { attempted: failed }));
      expect((await s.jobs.stats(1000)).outcomes).toEqual([{ kind: "a", outcome: "failed", count: 1 }]);
    });

    test("an unstored attempt enqueued in a transaction that rolls back: neither the job nor its outcome stays", async () => {
      const s = store();
      await expect(
        s.transaction(async (tx) => {
          await tx.jobs.enqueue(job("lost", { attempted: { error: "boom", retryAt: null } }));
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await s.jobs.get("lost")).toBeUndefined();
      expect((await s.jobs.stats(1000)).outcomes).toEqual([]);
    });

    test("countOutcomes adds to the counted outcomes by kind; zero counts and an empty list change nothing", async () => {
      const s = store();
      await s.jobs.enqueue(job("j1"));
      await lease(s, "w", 100);
      await s.jobs.complete("j1", "w", 150);
      await s.jobs.countOutcomes([]);
      expect((await s.jobs.stats(200)).outcomes).toEqual([{ kind: "a", outcome: "succeeded", count: 1 }]);
      await s.jobs.countOutcomes([
        { kind: "a", outcome: "succeeded", count: 3 },
        { kind: "b", outcome: "succeeded", count: 2 },
        { kind: "a", outcome: "succeeded", count: 1 },
        { kind: "b", outcome: "dead", count: 0 },
      ]);
      expect((await s.jobs.stats(200)).outcomes).toEqual([
        { kind: "a", outcome: "succeeded", count: 5 },
        { kind: "b", outcome: "succeeded", count: 2 },
      ]);
      await s.jobs.countOutcomes([{ kind: "b", outcome: "failed", count: 0 }]);
      expect((await s.jobs.stats(200)).outcomes).toHaveLength(2);
    });

    test("fail: pending at retryAt with the error, or dead; both counted by outcome", async () => {
      const s = store();
      await s.jobs.enqueue(job("j1"));
      await s.jobs.enqueue(job("j2", { kind: "b" }));
      await lease(s, "w", 100);
      expect(await s.jobs.fail("j1", "w", { error: "HTTP 503", now: 120, retryAt: 5120 })).toBe(true);
      expect(await s.jobs.fail("j2", "w", { error: "HTTP 410", now: 120, retryAt: null })).toBe(true);
      expect(await s.jobs.get("j1")).toMatchObject({ state: "pending", runAt: 5120, lastError: "HTTP 503", attempts: 1, leaseOwner: null });
      expect(await s.jobs.get("j2")).toMatchObject({ state: "dead", lastError: "HTTP 410", attempts: 1, leaseOwner: null, updatedAt: 120 });
      expect(await s.jobs.fail("j1", "w", { error: "again", now: 130, retryAt: 1 })).toBe(false);
      expect(await lease(s, "w", 5119)).toEqual([]);
      expect((await lease(s, "w", 5120)).map((j) => [j.id, j.attempts])).toEqual([["j1", 2]]);
      expect(await s.jobs.complete("j1", "w", 5130)).toBe(true);
      const stats = await s.jobs.stats(6000);
      expect(stats.outcomes).toEqual([
        { kind: "a", outcome: "failed", count: 1 },
        { kind: "a", outcome: "succeeded", count: 1 },
        { kind: "b", outcome: "dead", count: 1 },
      ]);
    });

    test("release gives a lease back without counting the attempt; only the owner's", async () => {
      const s = store();
      await s.jobs.enqueue(job("j1"));
      await s.jobs.enqueue(job("j2"));
      await lease(s, "w", 100);
      expect(await s.jobs.release("w", ["j1"], 200)).toBe(1);
      expect(await s.jobs.release("other", ["j2"], 200)).toBe(0);
      expect(await s.jobs.get("j1")).toMatchObject({ state: "pending", attempts: 0, runAt: 200, leaseOwner: null, leaseExpiresAt: null });
      expect((await s.jobs.get("j2"))?.state).toBe("running");
    });

    test("retry makes a dead job pending now with attempts 0 and its last error kept; other states are refused", async () => {
      const s = store();
      await s.jobs.enqueue(job("j1"));
      await s.jobs.enqueue(job("j2"));
      await lease(s, "w", 100);
      await s.jobs.fail("j1", "w", { error: "gone", now: 110, retryAt: null });
      expect(await s.jobs.retry("j1", 900)).toMatchObject({ id: "j1", state: "pending", attempts: 0, runAt: 900, lastError: "gone", updatedAt: 900 });
      expect(await s.jobs.retry("j1", 901)).toBeUndefined();
      expect(await s.jobs.retry("j2", 901)).toBeUndefined();
      expect(await s.jobs.retry("nope", 901)).toBeUndefined();
    });

    test("list (newest first) and count filter by state and kind", async () => {
      const s = store();
      await s.jobs.enqueue(job("j1", { now: 1 }));
      await s.jobs.enqueue(job("j2", { now: 2, kind: "b" }));
      await s.jobs.enqueue(job("j3", { now: 3 }));
      await lease(s, "w", 100, 1);
      await s.jobs.fail("j1", "w", { error: "x", now: 110, retryAt: null });
      expect((await s.jobs.list({}, 0, 10)).map((j) => j.id)).toEqual(["j3", "j2", "j1"]);
      expect((await s.jobs.list({}, 1, 1)).map((j) => j.id)).toEqual(["j2"]);
      expect((await s.jobs.list({ state: "dead" }, 0, 10)).map((j) => j.id)).toEqual(["j1"]);
      expect((await s.jobs.list({ state: "pending", kind: "a" }, 0, 10)).map((j) => j.id)).toEqual(["j3"]);
      expect(await s.jobs.count({ state: "pending" })).toBe(2);
      expect(await s.jobs.count({ kind: "b" })).toBe(1);
    });

    test("stats: depth by kind and state, the oldest due pending job by kind", async () => {
      const s = store();
      await s.jobs.enqueue(job("a1", { runAt: 100 }));
      await s.jobs.enqueue(job("a2", { runAt: 300 }));
      await s.jobs.enqueue(job("a3", { runAt: 9000 }));
      await s.jobs.enqueue(job("b1", { kind: "b", runAt: 50 }));
      await lease(s, "w", 60, 1);
      const stats = await s.jobs.stats(400);
      expect(stats.queues).toEqual([
        { kind: "a", state: "pending", count: 3 },
        { kind: "b", state: "running", count: 1 },
      ]);
      expect(stats.oldestDue).toEqual([{ kind: "a", runAt: 100 }]);
      expect(stats.outcomes).toEqual([]);
    });

    test("nextDue: null without jobs of the kinds; purgeDone deletes done jobs older than the bound only", async () => {
      const s = store();
      expect(await s.jobs.nextDue(KINDS)).toBeNull();
      await s.jobs.enqueue(job("j1"));
      await s.jobs.enqueue(job("j2"));
      await s.jobs.enqueue(job("j3"));
      await lease(s, "w", 100);
      await s.jobs.complete("j1", "w", 200);
      await s.jobs.complete("j2", "w", 300);
      await s.jobs.fail("j3", "w", { error: "x", now: 100, retryAt: null });
      expect(await s.jobs.nextDue(["c"])).toBeNull();
      expect(await s.jobs.purgeDone(250)).toBe(1);
      expect((await s.jobs.list({}, 0, 10)).map((j) => j.id).sort()).toEqual(["j2", "j3"]);
    });
  });
}
