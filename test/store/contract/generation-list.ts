import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { GenerationFilter, GenerationRecord, Store } from "../../../src/store/store";
import { generation, settled } from "./fixtures";

/** Twelve generations over three keys, two workspaces, two models and every status; two share a time; every third is flagged by a guardrail. */
function corpus(): GenerationRecord[] {
  return Array.from({ length: 12 }, (_, i) =>
    generation(`g${String(i).padStart(2, "0")}`, `k${i % 3}`, 10, {
      workspaceId: i % 2 === 0 ? "ws-a" : "ws-b",
      model: i % 4 < 2 ? "acme/alpha" : "acme/beta",
      providerName: i % 3 === 0 ? "p1" : "p2",
      finishReason: i % 5 === 0 ? "error" : i % 5 === 1 ? null : "stop",
      cancelled: i % 7 === 6,
      createdAt: 1000 + (i === 5 ? 4 : i) * 10,
      ...(i % 3 === 1 ? { guardrailFlags: i % 2 === 0 ? ["Email address", "Phone number"] : ["Email address"] } : {}),
    }),
  );
}

const newestFirst = (a: GenerationRecord, b: GenerationRecord) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function matches(g: GenerationRecord, f: GenerationFilter): boolean {
  const status = g.cancelled ? "cancelled" : g.finishReason === "error" ? "error" : "success";
  return (
    (f.workspaceId === undefined || g.workspaceId === f.workspaceId) &&
    (f.keyHash === undefined || g.keyHash === f.keyHash) &&
    (f.model === undefined || g.model === f.model) &&
    (f.provider === undefined || g.providerName === f.provider) &&
    (f.status === undefined || status === f.status) &&
    (f.from === undefined || g.createdAt >= f.from) &&
    (f.to === undefined || g.createdAt < f.to) &&
    (f.flagged === undefined || (g.guardrailFlags !== undefined) === f.flagged)
  );
}

async function allPages(s: Store, filter: GenerationFilter, size: number): Promise<string[]> {
  const ids: string[] = [];
  let before: { createdAt: number; id: string } | null = null;
  for (;;) {
    const page = await s.generations.list(filter, before, size);
    ids.push(...page.map((g) => g.id));
    if (page.length < size) return ids;
    const last = page.at(-1)!;
    before = { createdAt: last.createdAt, id: last.id };
  }
}

export function generationListContract(store: () => Store): void {
  describe("generations.list", () => {
    test("newest first, ties by id descending; keyset pages meet without gaps or repeats", async () => {
      const s = store();
      const all = corpus();
      await s.generations.commit(all.map((g) => settled(g, { nanos: null })));
      const expected = [...all].sort(newestFirst).map((g) => g.id);
      expect((await s.generations.list({}, null, 100)).map((g) => g.id)).toEqual(expected);
      // g04 and g05 share a time: a page boundary between them must not lose either
      for (const size of [1, 2, 3, 5, 12]) expect(await allPages(s, {}, size)).toEqual(expected);
      const record = (await s.generations.list({ keyHash: "k0", status: "error" }, null, 1))[0]!;
      expect(record).toEqual(all.find((g) => g.id === "g00")!);
    });

    test("every filter combination gives exactly the matching generations, in order", async () => {
      const s = store();
      const all = corpus();
      await s.generations.commit(all.map((g) => settled(g, { nanos: null })));
      const filter = fc.record(
        {
          workspaceId: fc.constantFrom("ws-a", "ws-b", "ws-none"),
          keyHash: fc.constantFrom("k0", "k1", "k2"),
          model: fc.constantFrom("acme/alpha", "acme/beta"),
          provider: fc.constantFrom("p1", "p2"),
          status: fc.constantFrom("success" as const, "error" as const, "cancelled" as const),
          from: fc.integer({ min: 990, max: 1130 }),
          to: fc.integer({ min: 990, max: 1130 }),
          flagged: fc.boolean(),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(filter, fc.integer({ min: 1, max: 5 }), async (f, size) => {
          const expected = all
            .filter((g) => matches(g, f))
            .sort(newestFirst)
            .map((g) => g.id);
          expect(await allPages(s, f, size)).toEqual(expected);
        }),
        { numRuns: 60 },
      );
    });

    test("flagged: the generations a guardrail flagged, or those it did not, each with its flags", async () => {
      const s = store();
      await s.generations.commit(corpus().map((g) => settled(g, { nanos: null })));
      const flagged = await s.generations.list({ flagged: true }, null, 100);
      expect(flagged.map((g) => [g.id, g.guardrailFlags])).toEqual([
        ["g10", ["Email address", "Phone number"]],
        ["g07", ["Email address"]],
        ["g04", ["Email address", "Phone number"]],
        ["g01", ["Email address"]],
      ]);
      expect((await s.generations.list({ flagged: false }, null, 100)).map((g) => g.id)).toEqual(["g11", "g09", "g08", "g06", "g05", "g03", "g02", "g00"]);
      expect((await s.generations.list({ flagged: true, workspaceId: "ws-b" }, null, 100)).map((g) => g.id)).toEqual(["g07", "g01"]);
    });
  });
}
