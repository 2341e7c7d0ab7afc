// One real gateway (port 0, temp SQLite) in front of one mock upstream, driven through the
// official OpenRouter TypeScript SDK. The SDK validates every response with zod, so any
// shape the gateway gets wrong surfaces as a ResponseValidationError in these tests.

import { expect } from "bun:test";
import { OpenRouter } from "@openrouter/sdk";
import type { BYOKProviderSlug } from "@openrouter/sdk/models";
import { OpenRouterError, ResponseValidationError } from "@openrouter/sdk/models/errors";
import type { TestGateway } from "../../support/gateway";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";

/** USD per token; a turn of `input` prompt and `output` completion tokens costs input*1e-6 + output*2e-6. */
const PRICING = `{ prompt: "0.000001", completion: "0.000002", input_cache_read: "0.0000001" }`;

export const sdkYaml = (url: string) => `
catalog: { default: false }
routing: { circuit_failures: 1000 }
providers:
  - { slug: mock, name: Mock Cloud, api: openai-chat, base_url: "${url}", api_key: gateway-own-key, zdr: true }
  - { slug: mockresp, name: Mock Responses, api: openai-responses, base_url: "${url}", api_key: k2 }
  - { slug: solo, name: Solo, api: openai-chat, base_url: "${url}" }
  - { slug: mockanth, name: Mock Anthropic, api: anthropic-messages, base_url: "${url}", api_key: k3 }
models:
  - id: acme/chat
    name: "Acme: Chat"
    context_length: 128000
    input_modalities: [text, image]
    endpoints:
      - { provider: mock, model: up-chat, pricing: ${PRICING}, max_completion_tokens: 4096, supported_parameters: [temperature, max_tokens, tools, tool_choice, reasoning] }
  - id: acme/resp
    name: "Acme: Resp"
    context_length: 64000
    endpoints:
      - { provider: mockresp, model: up-resp, pricing: ${PRICING} }
  - id: acme/anth
    context_length: 200000
    endpoints:
      - { provider: mockanth, model: up-anth, pricing: ${PRICING}, max_completion_tokens: 8192 }
  - id: acme/solo
    context_length: 32000
    endpoints:
      - { provider: solo, model: solo-1, pricing: ${PRICING} }
  - id: acme/embed
    name: "Acme: Embed"
    context_length: 8192
    output_modalities: [embeddings]
    endpoints:
      - { provider: mock, model: emb-1, pricing: { prompt: "0.0000001" } }
`;

export function costUsd(input: number, output: number): number {
  return (input * 1000 + output * 2000) / 1e9;
}

export function sdk(gw: TestGateway, apiKey: string): OpenRouter {
  return new OpenRouter({ apiKey, serverURL: `${gw.url}/api/v1`, retryConfig: { strategy: "none" } });
}

export type SdkHarness = GatewayAndUpstream & {
  /** SDK client holding the management (admin) key */
  admin: OpenRouter;
  /** SDK client holding a fresh inference key */
  client: OpenRouter;
};

export async function startSdkHarness(): Promise<SdkHarness> {
  const started = await startGatewayAndUpstream({ yaml: sdkYaml, keyBody: { name: "sdk inference" } });
  return { ...started, admin: sdk(started.gw, started.gw.adminKey), client: sdk(started.gw, started.key) };
}

/** Collects every page of an SDK PageIterator (pages are `{ result }` objects). */
export async function allPages<T>(first: AsyncIterable<{ result: T }>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of first) out.push(page.result);
  return out;
}

/**
 * The SDK's forward-compatible unions turn a known `type` whose body fails its schema into
 * `{ type: "UNKNOWN", isUnknown: true, raw }` instead of throwing, so a malformed reasoning
 * detail, output item or stream event would pass silently. This finds every such fallback.
 */
export function unknownParts(value: unknown, path = "$"): Array<{ path: string; raw: unknown }> {
  if (typeof value !== "object" || value === null) return [];
  const record = value as Record<string, unknown>;
  if (record.isUnknown === true) return [{ path, raw: record.raw }];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownParts(v, `${path}[${i}]`));
  return Object.entries(record).flatMap(([k, v]) => unknownParts(v, `${path}.${k}`));
}

// The SDK's send() overloads all return `Result | EventStream<Event>`; these narrow at run time.
type StreamedItem<T> = T extends AsyncIterable<infer E> ? E : never;

/** The JSON body of a non-streaming inference call (fails if the SDK returned a stream). */
export function result<T>(res: T): Exclude<T, AsyncIterable<unknown>> {
  if (typeof res === "object" && res !== null && Symbol.asyncIterator in res) throw new Error("expected a JSON result, got a stream");
  return res as Exclude<T, AsyncIterable<unknown>>;
}

/** Every event of a streaming inference call (fails if the SDK returned a JSON body). */
export async function drain<T>(res: T): Promise<StreamedItem<T>[]> {
  if (typeof res !== "object" || res === null || !(Symbol.asyncIterator in res)) throw new Error("expected a stream, got a JSON result");
  const out: StreamedItem<T>[] = [];
  for await (const item of res as AsyncIterable<StreamedItem<T>>) out.push(item);
  return out;
}

/** BYOK provider slugs are an open enum in the SDK; the gateway's own slugs are outside its list. */
export const providerSlug = (slug: string) => slug as BYOKProviderSlug;

export type ErrorClass = abstract new (
  ...args: never[]
) => OpenRouterError & { error: { code: number; message: string; metadata?: Record<string, unknown> | null } };

/** Awaits `call`, which must fail with `cls`; checks the HTTP status and the integer error.code. */
export async function expectTyped(call: () => Promise<unknown>, cls: ErrorClass, status: number): Promise<InstanceType<ErrorClass>> {
  let caught: unknown;
  try {
    await call();
  } catch (e) {
    caught = e;
  }
  if (caught instanceof ResponseValidationError) throw new Error(`ResponseValidationError: ${caught.message} body=${caught.body}`);
  if (!(caught instanceof cls)) throw new Error(`expected ${cls.name}, got ${String(caught)} ${caught instanceof OpenRouterError ? caught.body : ""}`);
  expect(caught.statusCode).toBe(status);
  expect(caught.error.code).toBe(status);
  expect(Number.isInteger(caught.error.code)).toBe(true);
  expect(caught.error.message.length).toBeGreaterThan(0);
  return caught;
}
