import type { TObject } from "@sinclair/typebox";
import { isJsonObject } from "./json-object";

/**
 * Top-level request fields a format's schema does not name: a self-hosted server's own
 * (vLLM's `chat_template_kwargs`, `guided_json`), or a provider's added after this release. They
 * reach an upstream of the client's own format as they came (gateway/passthrough.ts); a
 * translated pair has no place for them.
 */

/**
 * OpenRouter's own request fields, never an upstream's business even where the schema does not
 * name them: `route`, `transforms` and `usage` ({include: true}) are older OpenRouter switches
 * (https://openrouter.ai/docs/api-reference/overview); the rest are in gatewayRequestFields.
 */
export const OPENROUTER_ONLY_FIELDS: ReadonlySet<string> = new Set([
  "models",
  "provider",
  "route",
  "plugins",
  "transforms",
  "preset",
  "usage",
  "session_id",
  "trace",
  "stop_server_tools_when",
  "debug",
]);

export type UnknownFields = Readonly<Record<string, unknown>>;

export const NO_UNKNOWN_FIELDS: UnknownFields = Object.freeze({});

/** The reader of one format's unknown top-level fields, from its request schema. */
export function unknownFieldsOf(schema: TObject): (body: unknown) => UnknownFields {
  const known = new Set(Object.keys(schema.properties));
  return (body) => {
    if (!isJsonObject(body)) return NO_UNKNOWN_FIELDS;
    let unknown: Record<string, unknown> | undefined;
    for (const key in body) {
      if (known.has(key) || OPENROUTER_ONLY_FIELDS.has(key)) continue;
      unknown ??= {};
      unknown[key] = body[key];
    }
    return unknown ?? NO_UNKNOWN_FIELDS;
  };
}
