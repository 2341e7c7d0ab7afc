/** Contract: reserves racing the commits and releases of the same key never let spend + held pass the limit. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { Store } from "../../../src/store/store";
import { generation, reservation, settled, sleep, TODAY, usageRow } from "./fixtures";

const LIMIT = 1000;

type Commit = "group" | "transaction" | "rolled-back" | "failing-batch";
type Step = { kind: "reserve"; amount: number } | { kind: "commit"; pick: number; spentPermille: number; how: Commit } | { kind: "release"; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("reserve" as const), amount: fc.integer({ min: 0, max: 600 }) }),
  fc.record({
    kind: fc.constant("commit" as const),
    pick: fc.nat(),
    spentPermille: fc.integer({ min: 0, max: 1000 }),
    how: fc.constantFrom<Commit>("group", "transaction", "rolled-back", "failing-batch"),
  }),
  fc.record({ kind: fc.constant("release" as const), pick: fc.nat() }),
);

/** spend + held of a key, read inside a transaction so that no commit lands between the two reads */
const committedAndHeld = (s: Store, keyHash: string) =>
  s.transaction(async (tx) => ((await tx.usage.get(keyHash))?.total ?? 0) + (await tx.reservations.held(keyHash)));

export function reservationRaceContract(store: () => Store): void {
  describe("reservations racing commits", () => {
    test("over any interleaving of reserve, commit (grouped, in a transaction, rolled back, failing) and release on one key, spend + held never passes the limit", async () => {
      const s = store();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), fc.array(step, { minLength: 1, maxLength: 20 }), async (scheduler, steps) => {
          const keyHash = `k${run++}`;
          // reservations admitted and not settled, each taken out while one step settles it
          const open = new Map<string, number>();
          let spent = 0;
          let next = 0;
          const take = (pick: number): [string, number] | undefined => {
            const entry = [...open][pick % Math.max(1, open.size)];
            if (entry) open.delete(entry[0]);
            return entry;
          };
          const yieldHere = () => scheduler.schedule(Promise.resolve(), "inside the transaction");
          const perform = async (st: Step) => {
            await scheduler.schedule(Promise.resolve(), st.kind);
            if (st.kind === "reserve") {
              const id = `${keyHash}-r${next++}`;
              if ((await s.reservations.reserve(reservation(id, keyHash, LIMIT, st.amount))) === null) open.set(id, st.amount);
            } else if (st.kind === "release") {
              const taken = take(st.pick);
              if (taken) await s.reservations.release(taken[0]);
            } else {
              const taken = take(st.pick);
              if (!taken) return;
              const [id, amount] = taken;
              const cost = Math.floor((amount * st.spentPermille) / 1000);
              const record = settled(generation(`g-${id}`, keyHash, cost), { reservationId: id });
              const fails = st.how === "rolled-back" || st.how === "failing-batch";
              const committing =
                st.how === "group"
                  ? s.generations.commit([record])
                  : st.how === "failing-batch"
                    ? s.generations.commit([record, settled(generation(`bad-${id}`, keyHash, 1, { model: null as unknown as string }))])
                    : s.transaction(async (tx) => {
                        await tx.generations.commit([record]);
                        await yieldHere();
                        if (st.how === "rolled-back") throw new Error("rolled back");
                      });
              const ok = await committing.then(
                () => true,
                () => false,
              );
              expect(ok).toBe(!fails);
              // a record that was not stored keeps its reservation: the writer retries it later
              if (ok) spent += cost;
              else open.set(id, amount);
            }
            expect(await committedAndHeld(s, keyHash)).toBeLessThanOrEqual(LIMIT);
          };
          await scheduler.waitFor(Promise.all(steps.map(perform)));
          expect(await s.reservations.held(keyHash)).toBe([...open.values()].reduce((a, b) => a + b, 0));
          expect((await s.usage.get(keyHash))?.total ?? 0).toBe(spent);
          expect(spent).toBeLessThanOrEqual(LIMIT);
          for (const id of open.keys()) await s.reservations.release(id);
          expect(await s.reservations.held(keyHash)).toBe(0);
        }),
        { numRuns: 60 },
      );
    }, 60_000);

    test("a reserve issued while a transaction that released the key's hold is open waits for its outcome", async () => {
      const s = store();
      expect(await s.reservations.reserve(reservation("r1", "k", LIMIT, 600))).toBeNull();
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let released!: () => void;
      const inside = new Promise<void>((resolve) => (released = resolve));
      const rolledBack = s.transaction(async (tx) => {
        await tx.generations.commit([settled(generation("g1", "k", 100), { reservationId: "r1" })]);
        released();
        await gate;
        throw new Error("rolled back");
      });
      await inside;
      // inside the transaction the hold is gone and 100 spent: 900 would be left
      const racing = s.reservations.reserve(reservation("r2", "k", LIMIT, 800));
      await sleep(20);
      open();
      await expect(rolledBack).rejects.toThrow("rolled back");
      expect(await racing).toBe(400);
      expect(await s.reservations.held("k")).toBe(600);
      expect(await s.usage.get("k")).toEqual(usageRow("k", TODAY, {}));
    });
  });
}
