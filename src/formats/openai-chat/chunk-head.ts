import type { EncodeContext } from "../../ir/codec";

const OBJECT_AND_CREATED = `,"object":"chat.completion.chunk","created":`;

/**
 * Gives a Chat chunk the gateway's id and model within its own text, without serialising it
 * again. Only the layout OpenAI and most compatible servers write is recognised: compact JSON
 * opening with `{"id":<id>,"object":"chat.completion.chunk","created":<n>,"model":<model>`. Those
 * are the object's first keys, so the values replaced are the top-level ones. Any other layout
 * gives undefined, and the caller serialises the chunk from its parsed form.
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
    this.model = `,"model":${JSON.stringify(ctx.model)}`;
  }

  /** `text` with the gateway's id and model, when it has the layout above; `chunk` is its parsed form */
  rewrite(text: string, chunk: { id?: unknown; model?: unknown }): string | undefined {
    if (typeof chunk.id !== "string" || typeof chunk.model !== "string") return undefined;
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
    return this.id + text.slice(this.idHead.length - OBJECT_AND_CREATED.length, at) + this.model + text.slice(at + this.modelHead.length);
  }
}
