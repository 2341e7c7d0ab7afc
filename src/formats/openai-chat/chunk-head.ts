import type { EncodeContext } from "../../ir/codec";

const OBJECT_AND_CREATED = `,"object":"chat.completion.chunk","created":`;
/** top-level fields left out when null (see passthrough-stream.ts) */
const NULL_FIELDS = [`,"usage":null`, `,"system_fingerprint":null`];

/**
 * Gives a Chat chunk the gateway's id and model within its own text, without serialising it
 * again. Only the layout OpenAI and most compatible servers write is recognised: compact JSON
 * opening with `{"id":<id>,"object":"chat.completion.chunk","created":<n>,"model":<model>`. Those
 * are the object's first keys, so the values replaced are the top-level ones. A top-level
 * `usage` or `system_fingerprint` that is null is cut out when its compact pair occurs exactly
 * once in the text, so that one is the top-level pair; any other case gives undefined, and the
 * caller serialises the chunk from its parsed form.
 */
export class ChunkHead {
  private readonly id: string;
  private readonly model: string;
  private upstreamId: unknown;
  private upstreamModel: unknown;
  private idHead = "";
  private modelHead = "";

  constructor(ctx: EncodeContext) {
    this.id = `{"id":${JSON.stringify(ctx.generationId)}`;
    // OpenRouter's `provider` follows the model, as the encoder writes it
    this.model = `,"model":${JSON.stringify(ctx.model)}${ctx.provider === undefined ? "" : `,"provider":${JSON.stringify(ctx.provider)}`}`;
  }

  /** `text` with the gateway's id and model, when it has the layout above; `chunk` is its parsed form */
  rewrite(text: string, chunk: { id?: unknown; model?: unknown; provider?: unknown; usage?: unknown; system_fingerprint?: unknown }): string | undefined {
    // an upstream's own `provider` would be a second key: the parsed form is rewritten instead
    if (typeof chunk.id !== "string" || typeof chunk.model !== "string" || chunk.provider !== undefined) return undefined;
    if (chunk.id !== this.upstreamId || chunk.model !== this.upstreamModel) {
      this.upstreamId = chunk.id;
      this.upstreamModel = chunk.model;
      this.idHead = `{"id":${JSON.stringify(chunk.id)}${OBJECT_AND_CREATED}`;
      this.modelHead = `,"model":${JSON.stringify(chunk.model)}`;
    }
    if (!text.startsWith(this.idHead)) return undefined;
    let at = this.idHead.length;
    const digits = at;
    while (at < text.length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++;
    if (at === digits || !text.startsWith(this.modelHead, at)) return undefined;
    let rest = text.slice(at + this.modelHead.length);
    for (const [i, value] of [chunk.usage, chunk.system_fingerprint].entries()) {
      if (value !== null) continue;
      const pair = NULL_FIELDS[i]!;
      const found = rest.indexOf(pair);
      if (found < 0 || rest.indexOf(pair, found + 1) >= 0) return undefined;
      rest = rest.slice(0, found) + rest.slice(found + pair.length);
    }
    return this.id + text.slice(this.idHead.length - OBJECT_AND_CREATED.length, at) + this.model + rest;
  }
}
