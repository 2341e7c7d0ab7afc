// Property: tool-call arguments split at arbitrary boundaries by the upstream reassemble
// exactly at the client, for every inbound format x upstream kind, through the real gateway
// and the real SDK stream helpers. Bounded runs keep the suite fast.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { call } from "./drivers";
import { type Harness, INBOUNDS, MODEL, startHarness, UPSTREAMS } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A JSON object as a model would write it, with unicode, escapes and nesting. */
const argsObject = fc.dictionary(
  fc.string({ unit: "binary", maxLength: 8 }).filter((k) => k !== "__proto__"),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 4 },
);

/** Splits at the given code-point offsets (real upstreams never split a surrogate pair). */
function splitAt(text: string, cuts: number[]): string[] {
  const points = Array.from(text);
  const bounds = [...new Set(cuts.map((c) => c % (points.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const b of [...bounds, points.length]) {
    if (b > from) out.push(points.slice(from, b).join(""));
    from = Math.max(from, b);
  }
  return out.length > 0 ? out : [text];
}

describe("streamed tool arguments split anywhere reassemble exactly", () => {
  for (const inbound of INBOUNDS) {
    for (const upstream of UPSTREAMS) {
      test(`${inbound} -> ${upstream}`, async () => {
        await fc.assert(
          fc.asyncProperty(argsObject, fc.array(fc.nat(), { maxLength: 12 }), async (obj, cuts) => {
            const args = JSON.stringify(obj);
            h.up.reset();
            h.up.enqueue({ toolCalls: [{ id: "call_p1", name: "f", arguments: splitAt(args, cuts) }] });
            const a = await call(h, inbound, true, {
              model: MODEL[upstream],
              turns: [{ role: "user", text: "go" }],
              tools: [{ name: "f", description: "f", parameters: { type: "object" } }],
            });
            expect(a.toolCalls.map((c) => [c.id, c.name])).toEqual([["call_p1", "f"]]);
            // Anthropic clients hold arguments as a parsed object (key order of integer-like keys is not kept)
            // (compared with the JSON round trip of obj: JSON has no -0, so -0 arrives as 0)
            if (inbound === "messages") expect(JSON.parse(a.toolCalls[0]!.arguments)).toEqual(JSON.parse(args));
            else expect(a.toolCalls[0]!.arguments).toBe(args);
          }),
          { numRuns: 12 },
        );
      });
    }
  }
});
