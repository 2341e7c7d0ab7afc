import type { EncodeContext } from "../../ir/codec";

const OBJECT_AND_CREATED = `,"object":"chat.completion.chunk","created":`;
/** where a chunk whose keys are sorted (Azure OpenAI) names its object, after id and model */
const OBJECT_LAST = `,"object":"chat.completion.chunk"`;
/** top-level fields left out when null (see passthrough-stream.ts) */
const USAGE_NULL = `,"usage":null`;
const FINGERPRINT_NULL = `,"system_fingerprint":null`;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const ABSENT = -1;
const AMBIGUOUS = -2;

/**
 * Where the top-level `pair` is, scanning as little as each chunk allows. The pair just before
 * the closing brace (where OpenAI writes `usage`) is the top-level object's last member, and one
 * that comes before any object or array opens (where OpenAI writes `system_fingerprint`, after
 * `service_tier`) is one of its first: a pair cannot occur inside a string, whose quotes are
 * escaped. Anywhere else it is taken only when it occurs once.
 */
function topLevelPairAt(text: string, pair: string, from: number): number {
  // the text parsed as one object: the character after a pair that ends one before the text does is its closing brace
  const beforeClose = text.length - 1 - pair.length;
  if (beforeClose >= from && text.startsWith(pair, beforeClose)) return beforeClose;
  const first = text.indexOf(pair, from);
  if (first < 0) return ABSENT;
  if (!opensValue(text, from, first)) return first;
  return text.indexOf(pair, first + 1) >= 0 ? AMBIGUOUS : first;
}

/** Whether an object or array opens in `text` between `from` and `to` (a brace inside a string counts too, which only means a scan more). */
function opensValue(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) return true;
  }
  return false;
}

/** `text` from `from` on with up to two non-overlapping spans cut out (a span at ABSENT is not there). */
function withoutPairs(text: string, from: number, a: number, aLength: number, b: number, bLength: number): string {
  if (a === ABSENT && b === ABSENT) return text.slice(from);
  if (b === ABSENT) return text.slice(from, a) + text.slice(a + aLength);
  if (a === ABSENT) return text.slice(from, b) + text.slice(b + bLength);
  if (b < a) return withoutPairs(text, from, b, bLength, a, aLength);
  return text.slice(from, a) + text.slice(a + aLength, b) + text.slice(b + bLength);
}

/**
 * Gives a Chat chunk the gateway's id and model within its own text, without serialising it
 * again. Two layouts are recognised: the one OpenAI and most compatible servers write, compact JSON
 * opening with `{"id":<id>,"object":"chat.completion.chunk","created":<n>,"model":<model>` (the
 * object's first keys, so the values replaced are the top-level ones), and Azure OpenAI's, whose
 * keys are sorted (rewriteSorted). A top-level
 * `usage` or `system_fingerprint` that is null is cut out when its compact pair is where OpenAI
 * writes it (topLevelPairAt) or occurs exactly once in the text; any other case gives undefined,
 * and the caller serialises the chunk from its parsed form.
 */
export class ChunkHead {
  private readonly id: string;
  private readonly model: string;
  private readonly sortedEnvelope: string;
  private upstreamId: unknown;
  private upstreamModel: unknown;
  private idHead = "";
  private modelHead = "";
  private sortedTail = "";

  constructor(ctx: EncodeContext) {
    this.id = `{"id":${JSON.stringify(ctx.generationId)}`;
    // OpenRouter's `provider` follows the model, as the encoder writes it
    this.model = `,"model":${JSON.stringify(ctx.model)}${ctx.provider === undefined ? "" : `,"provider":${JSON.stringify(ctx.provider)}`}`;
    this.sortedEnvelope = `,"id":${JSON.stringify(ctx.generationId)}${this.model}${OBJECT_LAST}`;
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
      this.sortedTail = `,"id":${JSON.stringify(chunk.id)}${this.modelHead}${OBJECT_LAST}`;
    }
    if (!text.startsWith(this.idHead)) return this.rewriteSorted(text, chunk);
    let at = this.idHead.length;
    const digits = at;
    while (at < text.length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++;
    if (at === digits || !text.startsWith(this.modelHead, at)) return undefined;
    const from = at + this.modelHead.length;
    // every chunk of a stream passes here: positions in the text, no copies or iterators per chunk
    const usageAt = chunk.usage === null ? topLevelPairAt(text, USAGE_NULL, from) : ABSENT;
    const fingerprintAt = chunk.system_fingerprint === null ? topLevelPairAt(text, FINGERPRINT_NULL, from) : ABSENT;
    if (usageAt === AMBIGUOUS || fingerprintAt === AMBIGUOUS) return undefined;
    const head = this.id + text.slice(this.idHead.length - OBJECT_AND_CREATED.length, at) + this.model;
    return head + withoutPairs(text, from, usageAt, USAGE_NULL.length, fingerprintAt, FINGERPRINT_NULL.length);
  }

  /**
   * Azure OpenAI's layout: every key sorted, so the envelope follows `choices`:
   * `{"choices":[...],"created":<n>,"id":<id>,"model":<model>,"object":"chat.completion.chunk",...}`.
   * Those three pairs in a row, with unescaped quotes, can stand nowhere but at the top level (a
   * string escapes its quotes), and are taken only when they occur once; the null pairs, sorted
   * after them, must be found there too.
   */
  private rewriteSorted(text: string, chunk: { usage?: unknown; system_fingerprint?: unknown }): string | undefined {
    const at = text.indexOf(this.sortedTail);
    if (at < 0 || text.indexOf(this.sortedTail, at + 1) >= 0) return undefined;
    const from = at + this.sortedTail.length;
    const usageAt = chunk.usage === null ? topLevelPairAt(text, USAGE_NULL, from) : ABSENT;
    const fingerprintAt = chunk.system_fingerprint === null ? topLevelPairAt(text, FINGERPRINT_NULL, from) : ABSENT;
    if (usageAt < 0 && chunk.usage === null) return undefined;
    if (fingerprintAt < 0 && chunk.system_fingerprint === null) return undefined;
    return text.slice(0, at) + this.sortedEnvelope + withoutPairs(text, from, usageAt, USAGE_NULL.length, fingerprintAt, FINGERPRINT_NULL.length);
  }
}
