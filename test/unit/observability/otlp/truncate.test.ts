import { expect, test } from "bun:test";
import fc from "fast-check";
import { TRUNCATED_MARK, truncateAttributes } from "../../../../src/observability/otlp/truncate";

test("a string over the cap is cut to exactly the cap, ends in [truncated] and is flagged; others pass as they are", () => {
  const long = "x".repeat(5000);
  const { attributes, truncatedKeys } = truncateAttributes({ "gen_ai.prompt": long, short: "ok", n: 5, obj: { a: "y".repeat(5000) } }, 4095);
  expect((attributes["gen_ai.prompt"] as string).length).toBe(4095);
  expect(attributes["gen_ai.prompt"]).toBe(`${"x".repeat(4095 - TRUNCATED_MARK.length)}[truncated]`);
  expect(attributes["gen_ai.prompt.truncated"]).toBe(true);
  expect(attributes.short).toBe("ok");
  expect(attributes.n).toBe(5);
  expect((attributes.obj as string).length).toBe(4095);
  expect(attributes["obj.truncated"]).toBe(true);
  expect(truncatedKeys).toEqual(["gen_ai.prompt", "obj"]);
  expect(truncateAttributes({ exact: "z".repeat(4095) }, 4095)).toEqual({ attributes: { exact: "z".repeat(4095) }, truncatedKeys: [] });
});

test("property: no string is longer than the cap afterwards, and only cut keys are flagged", () => {
  fc.assert(
    fc.property(
      fc.dictionary(
        fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !k.endsWith(".truncated")),
        fc.string({ maxLength: 200 }),
      ),
      fc.integer({ min: 20, max: 150 }),
      (attrs, cap) => {
        const { attributes, truncatedKeys } = truncateAttributes(attrs, cap);
        for (const [_key, value] of Object.entries(attributes)) if (typeof value === "string") expect(value.length).toBeLessThanOrEqual(cap);
        expect(truncatedKeys.sort()).toEqual(
          Object.keys(attrs)
            .filter((k) => attrs[k]!.length > cap)
            .sort(),
        );
      },
    ),
  );
});

test("an object under the cap comes back as the JSON text it was measured by (what encodeValue sends), so it is serialised once", () => {
  const messages = [{ role: "user", content: "hi" }];
  const { attributes, truncatedKeys } = truncateAttributes({ "gen_ai.input.messages": { messages }, list: [1, 2] }, 4095);
  expect(attributes).toEqual({ "gen_ai.input.messages": '{"messages":[{"role":"user","content":"hi"}]}', list: [1, 2] });
  expect(truncatedKeys).toEqual([]);
});
