import type { ProviderEntry } from "../catalog/types";
import type { InboundFormatName } from "../config-schema";
import type { SseEvent, UpstreamCodec } from "../ir/codec";

/** A wire format of request and answer bodies; an upstream API speaks one (or, like Vertex, one per model family). */
export type FormatName = InboundFormatName | "bedrock" | "gemini";

/** One call as it is about to be sent: headers may be computed over exactly these bytes (AWS SigV4 signs them). */
export type OutgoingCall = { url: string; body: string; stream: boolean };

/**
 * An upstream API of the completions operation: the format its bodies are in, where a call goes,
 * how it is authorized, and how its stream is framed. The format's codec does the bodies;
 * everything else about talking to the API lives here, one file per API under providers/apis/.
 * docs/contributing.md, "How to add an upstream API".
 */
export type UpstreamApi = {
  /** the format of the bodies this model is served in (a Vertex Claude model: anthropic-messages) */
  format(upstreamModel: string): FormatName;
  codec(upstreamModel: string): UpstreamCodec;
  /**
   * The URL of a completion, under the provider's base URL. `credential` is the one the call is
   * made with: where the credential names its own place (a Bedrock BYOK key's region, a Vertex
   * service account's project), the URL follows it.
   */
  completionUrl(provider: ProviderEntry, upstreamModel: string, stream: boolean, credential: string): string;
  /** the URL of an embeddings call; absent: this API serves no embeddings */
  embeddingsUrl?(provider: ProviderEntry, upstreamModel: string): string;
  /**
   * The headers of one call, its credential's included. A promise only where a credential must
   * be exchanged or the call signed; the plain APIs answer at once, so no request waits a turn.
   */
  headers(provider: ProviderEntry, credential: string, call: OutgoingCall, signal: AbortSignal): Record<string, string> | Promise<Record<string, string>>;
  /** the API caches repeated prompt prefixes without markers (OpenAI's prompt caching); Anthropic's needs cache_control */
  readonly cachesImplicitly: boolean;
  /** the API takes images as bytes only (Bedrock): the gateway fetches a web image URL before the call */
  readonly imagesInline?: boolean;
  /** the events of a streamed answer (server-sent events unless the API frames them otherwise) */
  readEvents?(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent[]>;
  /**
   * The status an error answer counts as, where the API's own status misleads: AI Studio answers
   * a bad key with 400 API_KEY_INVALID, which is the endpoint's credential at fault (401), not the
   * client's request. Absent: the status as it came.
   */
  errorStatus?(status: number, body: unknown): number;
  /**
   * The upstream refused the credential (401): forget whatever was exchanged for it. True when a
   * fresh exchange is worth one more call (an access token that expired early); the call is then
   * made once more, never twice.
   */
  credentialRefused?(provider: ProviderEntry, credential: string): boolean;
  /** Reads a BYOK `key` for this API before it is stored; absent: any non-empty key is taken. */
  checkCredential?(credential: string): CredentialCheck;
};

/** `urls`: what the credential itself says to call (a service account's token_uri), checked like any URL a user gives. */
export type CredentialCheck = { ok: true; urls: readonly string[] } | { ok: false; problem: string };

/**
 * A credential that could not be turned into what the call needs (a service account whose grant
 * the token endpoint refused). `status` is what the attempt counts as: 401 for a refused
 * credential, so the fallback loop treats it as the endpoint's bad key.
 */
export class CredentialExchangeError extends Error {
  override name = "CredentialExchangeError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Content type, accept and the operator's fixed headers: what every JSON API is sent. */
export function jsonHeaders(provider: ProviderEntry, stream: boolean): Record<string, string> {
  return { "content-type": "application/json", accept: stream ? "text/event-stream" : "application/json", ...provider.headers };
}
