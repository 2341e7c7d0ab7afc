// ChunkHead splices the gateway's id, model and provider into an upstream chunk's own text and
// cuts a top-level `usage` / `system_fingerprint` that is null. Checked against what serialising
// the parsed chunk gives, for exact cases and for random chunks in OpenAI's layout.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ChunkHead } from "../../../src/formats/openai-chat/chunk-head";
import type { EncodeContext } from "../../../src/ir/codec";

const CTX = { generationId: "gen-1", model: "acme/alpha", provider: "mock-chat" } as EncodeContext;

/** The chunk a client must see: the gateway's id, model and provider, no top-level null usage or fingerprint, other keys in order. */
function expected(chunk: Record<string, unknown>): string {
  const out: Record<string, unknown> = { id: CTX.generationId };
  for (const [key, value] of Object.entries(chunk)) {
    if (key === "id") continue;
    if ((key === "usage" || key === "system_fingerprint") && value === null) continue;
    if (key === "model") {
      out.model = CTX.model;
      out.provider = CTX.provider;
    } else out[key] = value;
  }
  return JSON.stringify(out);
}

const chunkOf = (fields: { fingerprint?: string | null; usage?: unknown; delta?: Record<string, unknown> }) => ({
  id: "chatcmpl-9",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: "gpt-x",
  ...(fields.fingerprint === undefined ? {} : { system_fingerprint: fields.fingerprint }),
  choices: [{ index: 0, delta: fields.delta ?? { content: "hi" }, logprobs: null, finish_reason: null }],
  ...(fields.usage === undefined ? {} : { usage: fields.usage }),
});

const rewrite = (chunk: Record<string, unknown>, text = JSON.stringify(chunk)) => new ChunkHead(CTX).rewrite(text, chunk);

describe("ChunkHead", () => {
  test("both nulls cut, in either order in the text", () => {
    const chunk = chunkOf({ fingerprint: null, usage: null });
    expect(rewrite(chunk)).toBe(
      `{"id":"gen-1","object":"chat.completion.chunk","created":1700000000,"model":"acme/alpha","provider":"mock-chat","choices":[{"index":0,"delta":{"content":"hi"},"logprobs":null,"finish_reason":null}]}`,
    );
    const usageFirst = { id: "chatcmpl-9", object: "chat.completion.chunk", created: 1, model: "gpt-x", usage: null, choices: [], system_fingerprint: null };
    expect(rewrite(usageFirst)).toBe(`{"id":"gen-1","object":"chat.completion.chunk","created":1,"model":"acme/alpha","provider":"mock-chat","choices":[]}`);
  });

  test("only the fingerprint, or only the usage, is null", () => {
    expect(rewrite(chunkOf({ fingerprint: null }))).toBe(expected(chunkOf({ fingerprint: null })));
    expect(rewrite(chunkOf({ usage: null, fingerprint: "fp_1" }))).toBe(expected(chunkOf({ usage: null, fingerprint: "fp_1" })));
  });

  test("a null pair where OpenAI writes it is cut even when its spelling also occurs nested; elsewhere that leaves the chunk to be serialised", () => {
    const nested = chunkOf({ usage: null, fingerprint: null, delta: { content: "x", usage: null, system_fingerprint: null } });
    expect(rewrite(nested)).toBe(expected(nested));
    expect(rewrite(nested)).toContain(`"delta":{"content":"x","usage":null,"system_fingerprint":null}`);
    // OpenAI writes service_tier between the model and the fingerprint
    const tiered = {
      id: "chatcmpl-9",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-x",
      service_tier: "default",
      system_fingerprint: null,
      choices: [{ index: 0, delta: { content: "{[", system_fingerprint: null } }],
    };
    expect(rewrite(tiered)).toBe(expected(tiered));
    const objectFirst = { id: "chatcmpl-9", object: "chat.completion.chunk", created: 1, model: "gpt-x", extra: { a: 1, usage: null }, usage: null, tail: 1 };
    expect(rewrite(objectFirst)).toBeUndefined();
    const usageMidway = {
      id: "chatcmpl-9",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-x",
      choices: [{ index: 0, delta: { content: "x", usage: null } }],
      usage: null,
      obfuscation: "ab",
    };
    expect(rewrite(usageMidway)).toBeUndefined();
    const { choices: _nested, ...alone } = usageMidway;
    expect(rewrite(alone)).toBe(expected(alone));
  });

  test("another layout, or an upstream provider, is not spliced", () => {
    const chunk = chunkOf({});
    expect(rewrite(chunk, JSON.stringify(chunk, null, 1))).toBeUndefined();
    expect(rewrite({ ...chunk, provider: "up" })).toBeUndefined();
    const { created: _created, ...noCreated } = chunk;
    expect(rewrite(noCreated)).toBeUndefined();
  });

  test("property: a spliced chunk is the parsed chunk with the gateway's fields, key for key", () => {
    const text = fc.string({ maxLength: 12 });
    const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined }).chain((v) => fc.constantFrom(v, null as T | null | undefined));
    fc.assert(
      fc.property(
        nullable(text),
        nullable(fc.record({ prompt_tokens: fc.nat(), completion_tokens: fc.nat() })),
        fc.dictionary(fc.constantFrom("content", "role", "usage", "system_fingerprint", "refusal"), fc.option(text, { nil: null }), { maxKeys: 3 }),
        fc.boolean(),
        (fingerprint, usage, delta, usageFirst) => {
          const base = chunkOf({ fingerprint, usage, delta });
          const chunk: Record<string, unknown> =
            usageFirst && "usage" in base ? { ...Object.fromEntries(Object.entries(base).filter(([k]) => k !== "choices")), choices: base.choices } : base;
          const out = rewrite(chunk);
          // undefined only when a null pair the chunk has at top level also occurs nested
          if (out === undefined) {
            const nested = JSON.stringify(chunk.choices);
            expect(
              (chunk.usage === null && nested.includes(`,"usage":null`)) ||
                (chunk.system_fingerprint === null && nested.includes(`,"system_fingerprint":null`)),
            ).toBe(true);
          } else expect(out).toBe(expected(chunk));
        },
      ),
      { numRuns: 500 },
    );
  });

  describe("Azure OpenAI's layout: every key sorted, the envelope after the choices", () => {
    const SAFE = { filtered: false, severity: "safe" };
    const azure = (extra: Record<string, unknown> = {}) => ({
      choices: [{ content_filter_results: { hate: SAFE, violence: SAFE }, delta: { content: "hi" }, finish_reason: null, index: 0, logprobs: null }],
      created: 1748977994,
      id: "chatcmpl-az",
      model: "gpt-4o-2024-11-20",
      object: "chat.completion.chunk",
      ...extra,
    });

    test("id and model replaced in place, provider after the model, the rest as sent", () => {
      expect(rewrite(azure({ system_fingerprint: "fp_1" }))).toBe(
        `{"choices":[{"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}},"delta":{"content":"hi"},"finish_reason":null,"index":0,"logprobs":null}],"created":1748977994,"id":"gen-1","model":"acme/alpha","provider":"mock-chat","object":"chat.completion.chunk","system_fingerprint":"fp_1"}`,
      );
    });

    test("a null usage or fingerprint after the envelope is cut", () => {
      const chunk = azure({ system_fingerprint: null, usage: null });
      expect(JSON.parse(rewrite(chunk)!)).toEqual(JSON.parse(expected(chunk)));
      expect(rewrite(chunk)).not.toContain(`"usage"`);
      expect(rewrite(chunk)).not.toContain(`"system_fingerprint"`);
      expect(rewrite(chunk)!.endsWith(`"object":"chat.completion.chunk"}`)).toBe(true);
    });

    test("the envelope twice, a null pair before it, or an empty object (Azure's filter chunks) is not spliced", () => {
      const chunk = azure();
      const text = JSON.stringify(chunk);
      expect(
        rewrite(chunk, `${text.slice(0, -1)},"again":{"created":1,"id":"chatcmpl-az","model":"gpt-4o-2024-11-20","object":"chat.completion.chunk"}}`),
      ).toBeUndefined();
      const early = { usage: null, ...chunk };
      expect(rewrite(early)).toBeUndefined();
      expect(rewrite({ ...chunk, id: "", model: "", object: "" })).toBeUndefined();
    });
  });
});
