import type { TObject } from "@sinclair/typebox";
import type { Settlement } from "./settlement";
import type { IRFinishPart, IRRequest, IRResult, IRStreamPart } from "./types";

/** What an inbound encoder needs to know that the IR does not carry. */
export type EncodeContext = {
  /** the gateway's generation id; used as the response id the client sees */
  generationId: string;
  /** model id shown to the client (the catalog id that served the request) */
  model: string;
  /** unix seconds */
  created: number;
  /** the decoded request, for formats that echo request fields (Responses) */
  request: IRRequest;
  /** display name of the provider that served (OpenRouter's `provider` field); absent before one did */
  provider?: string;
  /** the gateway's count of the prompt's tokens, given to a stream encoder whose codec `announcesPromptTokens` */
  promptTokens?: number;
};

/** A format clients speak to us: decode their request, encode our answer. */
export interface InboundCodec<Body = unknown, Result = Record<string, unknown>> {
  decodeRequest(body: Body, headers?: Headers): IRRequest;
  /** the whole answer; `settlement` carries the money and service metadata the IR usage does not */
  encodeResult(result: IRResult, ctx: EncodeContext, settlement: Settlement): Result;
  createStreamEncoder(ctx: EncodeContext): InboundStreamEncoder;
  /** same format in and out: the upstream's own answer, changed only where the gateway must */
  passthrough: PassthroughCodec;
  /**
   * The body's top-level fields this format's schema does not name, OpenRouter's own left out:
   * sent as they came to an upstream of this same format, to no other.
   */
  unknownFields(body: unknown): Readonly<Record<string, unknown>>;
  /** the error body clients of this format expect, for an HTTP error status */
  errorBody(status: number, message: string, metadata?: Record<string, unknown>): Record<string, unknown>;
  /**
   * The stream states the prompt's tokens before the upstream's count can be known (Anthropic's
   * message_start), so the gateway counts them while the upstream is called (EncodeContext.promptTokens).
   */
  readonly announcesPromptTokens?: boolean;
  /** its bodies may refer to stored answers (Responses' item_reference, previous_response_id), resolved before decoding */
  readonly refersToStoredItems?: boolean;
  /** what a preset made through this format's route keeps of a body, and how it reads it back */
  readonly preset: PresetRole;
}

/**
 * A format's part in presets: a preset version keeps the config fields of the body it was made
 * from, in that format's spelling, and is decoded by that format's codec at inference.
 */
export interface PresetRole {
  /** the body fields a preset keeps (model, sampling, tools...; never the conversation or per-request switches) */
  readonly configFields: ReadonlySet<string>;
  /** the request schema a stored config is checked against before it is decoded */
  readonly requestSchema: TObject;
  /** an empty conversation in this format, for decoding a config on its own */
  readonly noConversation: Readonly<Record<string, unknown>>;
  /** the body's system prompt as text, null when it has none */
  systemPrompt(body: Record<string, unknown>): string | null;
  /** whether a tool definition is written as only this format writes them (a stored config's format is told by them) */
  ownsTool(tool: Record<string, unknown>): boolean;
  /** the same for a tool_choice value (a plain string belongs to more than one format) */
  ownsToolChoice(choice: unknown): boolean;
}

export interface InboundStreamEncoder {
  /** SSE text for one IR part ("" when the part produces nothing). The stream ends after `error` or `finish`. */
  encode(part: Exclude<IRStreamPart, IRFinishPart>): string;
  /** SSE text that ends the stream, with what the gateway charged */
  finish(part: IRFinishPart, settlement: Settlement): string;
}

export type IRErrorPart = Extract<IRStreamPart, { type: "error" }>;

/**
 * Writes a streamed answer in the client's format, either from IR parts (an inbound encoder) or
 * from the upstream's own events (same-format passthrough). The stream pipeline drives it.
 */
export interface StreamWriter {
  /**
   * SSE text to send now for one upstream event and the parts decoded from it (`event` null: the
   * parts the decoder produced when the upstream closed). Parts from an end part (`finish` or
   * `error`) on are not written here: what belongs to the end is held back for `finish` / `error`.
   */
  write(event: SseEvent | null, parts: readonly IRStreamPart[]): string;
  /** SSE text that ends the stream, with what the gateway charged; "" once the stream has ended */
  finish(part: IRFinishPart, settlement: Settlement): string;
  /** the stream's terminal error event; "" once the stream has ended */
  error(part: IRErrorPart): string;
}

/**
 * Same format in and out: the upstream's JSON or SSE reaches the client as it came, with only the
 * changes the gateway must make (its id and model, the usage it charged, its own fields).
 */
export interface PassthroughCodec {
  /** the upstream's JSON answer (`raw`) as the client gets it; `result` is its decoding, usage completed */
  rewriteResult(raw: Record<string, unknown>, result: IRResult, ctx: EncodeContext, settlement: Settlement): Record<string, unknown>;
  createStreamWriter(ctx: EncodeContext): StreamWriter;
}

/**
 * One server-sent event as parsed from an upstream stream. `json` is its data parsed once by the
 * reader, for the decoder and a passthrough writer alike; absent when the data is not JSON.
 */
export type SseEvent = { event?: string; data: string; json?: unknown };

/** A format we speak to upstreams: encode the IR request, decode their answer. */
/** The bodies of one wire format as an upstream API speaks them; where they go and how they are authorized is the API's (providers/apis/). */
export interface UpstreamCodec {
  encodeRequest(req: IRRequest, upstreamModel: string): Record<string, unknown>;
  /** throws UpstreamFormatError when the body is not a valid result */
  decodeResult(body: unknown): IRResult;
  createStreamDecoder(): UpstreamStreamDecoder;
  /** human-readable message from an upstream error body */
  errorMessage(body: unknown): string | undefined;
}

export interface UpstreamStreamDecoder {
  push(event: SseEvent): IRStreamPart[];
  /** the upstream closed the stream; close open blocks. Returns [] if `finish` was already emitted. */
  end(): IRStreamPart[];
  /** whether a terminal `finish` (or `error`) has been produced */
  readonly finished: boolean;
}

export class UpstreamFormatError extends Error {
  override name = "UpstreamFormatError";
}
