import { badRequest } from "../errors";
import { checkOutboundUrl, type UrlPolicy } from "../outbound/check-url";
import type { ConfigKeySpec, DestinationType } from "./contract";
import { RESERVED_HEADERS } from "./outbound-headers";
import { isMasked } from "./secret-mask";

/** A destination's config in clear: the type's keys (defaults applied) and the user's extra headers. */
export type OpenConfig = Record<string, unknown> & { headers?: Record<string, string> };

const MAX_VALUE_CHARS = 4096;
const MAX_URL_CHARS = 2048;
const MAX_HEADERS = 32;
/** RFC 9110 token characters */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,128}$/;
const HEADER_VALUE = /^[^\r\n\0]{0,8192}$/;

const field = (key: string) => `config.${key}`;
const invalid = (key: string, problem: string) => badRequest(`Invalid '${field(key)}': ${problem}`, { field: field(key) });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function checkHeaders(value: unknown): Record<string, string> {
  if (!isObject(value)) throw invalid("headers", "expected an object of header names to string values");
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) throw invalid("headers", `at most ${MAX_HEADERS} headers`);
  const out: Record<string, string> = {};
  for (const [name, text] of entries) {
    const key = `headers.${name}`;
    if (!HEADER_NAME.test(name)) throw invalid(key, "not a valid header name");
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw invalid(key, "set by the gateway itself");
    if (typeof text !== "string" || !HEADER_VALUE.test(text)) throw invalid(key, "expected a string of at most 8192 characters without line breaks");
    if (isMasked(text)) throw invalid(key, "a masked value cannot be saved: send the value itself");
    out[name] = text;
  }
  return out;
}

async function checkValue(spec: ConfigKeySpec, value: string, policy: UrlPolicy): Promise<void> {
  if (value.length > (spec.url ? MAX_URL_CHARS : MAX_VALUE_CHARS)) throw invalid(spec.key, `at most ${spec.url ? MAX_URL_CHARS : MAX_VALUE_CHARS} characters`);
  if (spec.secret && isMasked(value)) throw invalid(spec.key, "a masked value cannot be saved: send the secret itself");
  if (spec.oneOf && !spec.oneOf.includes(value)) throw invalid(spec.key, `expected one of ${spec.oneOf.map((v) => `'${v}'`).join(", ")}, got '${value}'`);
  if (spec.pattern && !spec.pattern.test(value)) throw invalid(spec.key, `not in the expected format (${spec.pattern.source})`);
  if (spec.url) {
    const checked = await checkOutboundUrl(value, policy);
    if (!checked.ok) throw invalid(spec.key, checked.reason);
  }
}

/**
 * A config as one destination type takes it: only the type's keys and `headers`, every value a
 * string, required keys present, defaults filled in, allowed values and patterns met, URLs
 * passing the outbound check under the operator's policy. Any fault is a 400 naming the key
 * (`config.apiKey`).
 */
export async function checkConfig(
  type: DestinationType,
  specs: readonly ConfigKeySpec[],
  raw: Record<string, unknown>,
  policy: UrlPolicy,
): Promise<OpenConfig> {
  const known = new Set(specs.map((s) => s.key));
  for (const key of Object.keys(raw))
    if (key !== "headers" && !known.has(key)) throw invalid(key, `unknown key: type '${type}' takes ${[...known, "headers"].join(", ")}`);
  const out: OpenConfig = {};
  for (const spec of specs) {
    const given = raw[spec.key];
    const value = given === undefined || given === null || given === "" ? spec.default : given;
    if (value === undefined) {
      if (spec.required) throw invalid(spec.key, `required for type '${type}'`);
      continue;
    }
    if (typeof value !== "string") throw invalid(spec.key, "expected a string");
    await checkValue(spec, value, policy);
    out[spec.key] = value;
  }
  if (raw.headers !== undefined && raw.headers !== null) out.headers = checkHeaders(raw.headers);
  return out;
}

/**
 * An update's config over the current one: keys it leaves out keep their value, a key set to
 * null goes back to its default (or away), a masked secret keeps the stored secret, and a header
 * whose value is masked keeps the stored value of that header. The result is checked again as a
 * whole by `checkConfig`.
 */
export function mergeConfig(specs: readonly ConfigKeySpec[], current: OpenConfig, patch: Record<string, unknown>): Record<string, unknown> {
  const secret = new Set(specs.filter((s) => s.secret).map((s) => s.key));
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (key === "headers" && isObject(value)) merged.headers = keptHeaders(current.headers ?? {}, value);
    else if (!(secret.has(key) && isMasked(value) && current[key] !== undefined)) merged[key] = value;
  }
  return merged;
}

function keptHeaders(current: Record<string, string>, sent: Record<string, unknown>): Record<string, unknown> {
  const stored = new Map(Object.entries(current).map(([name, value]) => [name.toLowerCase(), value]));
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(sent)) out[name] = isMasked(value) ? (stored.get(name.toLowerCase()) ?? value) : value;
  return out;
}
