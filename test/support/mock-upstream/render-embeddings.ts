// OpenAI /embeddings. The openai SDK asks for `encoding_format: "base64"` by
// default (little-endian float32), so both encodings are served.

import { usageOf } from "./turn-parts.ts";
import type { MockTurn, RenderContext } from "./types.ts";

function inputCount(input: unknown): number {
  if (!Array.isArray(input)) return 1;
  if (input.length === 0) return 0;
  // number[] is one tokenised input; number[][] and string[] are many.
  return typeof input[0] === "number" ? 1 : input.length;
}

/** Values exactly representable in float32, so a base64 round trip is exact. */
function defaultVector(i: number): number[] {
  return [i + 0.5, 0.25, -0.125];
}

function base64Float32(values: number[]): string {
  const buf = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => buf.writeFloatLE(v, i * 4));
  return buf.toString("base64");
}

export function renderEmbeddingsJson(turn: MockTurn, ctx: RenderContext): unknown {
  const n = inputCount(ctx.body?.input);
  const vectors = turn.embedding ?? Array.from({ length: n }, (_, i) => defaultVector(i));
  const base64 = ctx.body?.encoding_format === "base64";
  const u = usageOf(turn);
  return {
    object: "list",
    data: vectors.map((v, index) => ({ object: "embedding", index, embedding: base64 ? base64Float32(v) : v })),
    model: ctx.model,
    usage: { prompt_tokens: u.input, total_tokens: u.input },
  };
}
