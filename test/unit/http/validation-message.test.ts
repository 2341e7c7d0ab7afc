import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { type TSchema, t } from "elysia";
import fc from "fast-check";
import { MessagesRequestSchema } from "../../../src/formats/anthropic-messages/schema";
import { ChatRequestSchema } from "../../../src/formats/openai-chat/schema";
import { ResponsesRequestSchema } from "../../../src/formats/openai-responses/schema";
import { expectationOf, explainFailure } from "../../../src/http/validation-message";

function explain(schema: TSchema, value: unknown) {
  const first = Value.Errors(schema, value).First();
  if (!first) throw new Error("value passed the schema");
  return explainFailure(first);
}

describe("expectationOf", () => {
  test("numbers, strings, literals and unions in words", () => {
    expect(expectationOf(t.Number({ minimum: 0, maximum: 2 }) as never)).toBe("a number from 0 to 2");
    expect(expectationOf(t.Nullable(t.Integer({ minimum: 1 })) as never)).toBe("an integer of at least 1 or null");
    expect(expectationOf(t.Number({ exclusiveMinimum: 0 }) as never)).toBe("a number greater than 0");
    expect(expectationOf(t.String({ maxLength: 256 }) as never)).toBe("a string of at most 256 characters");
    expect(expectationOf(t.Union([t.Literal("a"), t.Literal("b")]) as never)).toBe('one of "a", "b"');
    expect(expectationOf(t.UnionEnum(["x", "y"]) as never)).toBe('one of "x", "y"');
    expect(expectationOf(t.Array(t.String(), { maxItems: 3 }) as never)).toBe("an array of at most 3 items");
    expect(expectationOf(t.Boolean() as never)).toBe("true or false");
    expect(expectationOf(t.Union([t.String(), t.Array(t.String())]) as never)).toBe("a string or an array");
  });
});

describe("explainFailure", () => {
  test("a nullable number given a string names what was expected", () => {
    expect(explain(t.Object({ temperature: t.Nullable(t.Number({ minimum: 0, maximum: 2 })) }), { temperature: "hot" })).toEqual({
      pointer: "/temperature",
      problem: 'expected a number from 0 to 2 or null, got "hot"',
    });
  });

  test("an integer field refuses a numeric string, as OpenAI does (JSON carries numbers)", () => {
    expect(explain(ChatRequestSchema, { messages: [{ role: "user", content: "hi" }], max_tokens: "20" })).toEqual({
      pointer: "/max_tokens",
      problem: 'expected an integer of at least 1 or null, got "20"',
    });
    expect(explain(MessagesRequestSchema, { model: "m", max_tokens: "20", messages: [{ role: "user", content: "hi" }] })).toEqual({
      pointer: "/max_tokens",
      problem: 'expected an integer of at least 1, got "20"',
    });
  });

  test("a wrong discriminator points at the property itself and lists the allowed values", () => {
    const Message = t.Union([
      t.Object({ role: t.Literal("user"), content: t.String() }),
      t.Object({ role: t.Literal("assistant"), content: t.Nullable(t.String()) }),
    ]);
    expect(explain(t.Object({ messages: t.Array(Message) }), { messages: [{ role: "wizard", content: "hi" }] })).toEqual({
      pointer: "/messages/0/role",
      problem: 'expected one of "user", "assistant", got "wizard"',
    });
  });

  test("a right discriminator descends into its alternative", () => {
    const Block = t.Union([t.Object({ type: t.Literal("text"), text: t.String() }), t.Object({ type: t.Literal("image"), url: t.String() })]);
    expect(explain(t.Object({ blocks: t.Array(Block) }), { blocks: [{ type: "image", url: 5 }] })).toEqual({
      pointer: "/blocks/0/url",
      problem: "expected a string, got 5",
    });
    expect(explain(t.Object({ blocks: t.Array(Block) }), { blocks: [{ type: "text" }] })).toEqual({ pointer: "/blocks/0/text", problem: "is required" });
  });

  test("an unknown field in a closed object is named itself, not its first child", () => {
    expect(explain(t.Object({ a: t.Number() }, { additionalProperties: false }), { a: 1, foo: { bar: 1 } })).toEqual({
      pointer: "/foo",
      problem: "unknown field",
    });
  });

  test("of alternatives that fail equally deep, the one whose element is of the right kind is named", () => {
    const Input = t.Union([t.String({ minLength: 1 }), t.Array(t.String({ minLength: 1 })), t.Array(t.Array(t.Number(), { minItems: 1 }))]);
    expect(explain(t.Object({ input: Input }), { input: [[1, 2], []] })).toEqual({
      pointer: "/input/1",
      problem: "expected an array of at least 1 item, got an array",
    });
    expect(explain(t.Object({ input: Input }), { input: ["a", ""] })).toEqual({
      pointer: "/input/1",
      problem: 'expected a string of at least 1 character, got ""',
    });
  });

  test("the only alternative of the value's kind is descended into", () => {
    const Content = t.Union([t.String(), t.Array(t.Object({ type: t.Literal("text"), text: t.String() }))]);
    expect(explain(t.Object({ content: Content }), { content: [{ type: "text", text: 1 }] })).toEqual({
      pointer: "/content/0/text",
      problem: "expected a string, got 1",
    });
  });
});

/** Any JSON-ish value, deep enough to reach message parts. */
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true }),
    fc.integer(),
    fc.string(),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("role", "type", "content", "text", "model", "messages", "input", "max_tokens", "temperature", "x"), tie("value"), {
      maxKeys: 4,
    }),
  ),
})).value;

describe("every failure of a real request schema gets a field and an expectation", () => {
  for (const [name, schema] of [
    ["chat", ChatRequestSchema],
    ["responses", ResponsesRequestSchema],
    ["messages", MessagesRequestSchema],
  ] as const) {
    test(name, () => {
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom("model", "messages", "input", "max_tokens", "temperature", "tools", "stream", "metadata"), json), (body) => {
          const first = Value.Errors(schema, { model: "a/b", ...body }).First();
          if (!first) return;
          const { pointer, problem } = explainFailure(first);
          expect(problem).not.toContain("union value");
          expect(problem).not.toContain("a valid value");
          expect(problem.length).toBeGreaterThan(0);
          // the pointer names a place inside the body (or a required field of one)
          expect(pointer.startsWith("/")).toBe(true);
        }),
        { numRuns: 400 },
      );
    });
  }
});
