import { t } from "elysia";
import { badRequest } from "../errors";
import { ProviderPreferences, SessionId, Trace, User } from "../formats/shared-schema";
import { flatPassthrough } from "../videos/stored-request";
import type { MediaEndpoint } from "./media-catalog";

/**
 * Fields every media request may carry (the SDK's `provider`, `session_id`, `trace`, `user`):
 * routing as for chat, plus `provider.options.<slug>` passthrough blocks as for videos.
 */
export const MediaProviderField = t.Optional(
  t.Nullable(
    t.Object(
      { ...ProviderPreferences.properties, options: t.Optional(t.Record(t.String(), t.Record(t.String(), t.Unknown()))) },
      // routing keys chat knows and media ignores (sort, max_price, ...) are not refused
      { additionalProperties: true },
    ),
  ),
);

export const mediaCallerFields = { provider: MediaProviderField, session_id: t.Optional(SessionId), trace: t.Optional(Trace), user: t.Optional(User) };

export type MediaCallerFields = {
  provider?: {
    order?: string[] | null;
    only?: string[] | null;
    ignore?: string[] | null;
    allow_fallbacks?: boolean | null;
    options?: Record<string, Record<string, unknown>>;
  } | null;
  session_id?: string;
  trace?: Record<string, unknown>;
  user?: string;
};

/** A 400 naming the field and what it may be. */
export function refused(field: string, message: string, allowed?: readonly unknown[]): never {
  throw badRequest(message, allowed === undefined ? { field } : { field, allowed: [...allowed] });
}

/** The value, unless the model does not take it: a 400 naming the field and the allowed values. */
export function checkIn<T>(field: string, value: T | undefined, allowed: readonly T[], model: string): void {
  if (value === undefined || allowed.includes(value)) return;
  if (allowed.length === 0) refused(field, `${field} is not supported by ${model}`, []);
  refused(field, `${field} ${JSON.stringify(value)} is not supported by ${model}; allowed values: ${allowed.join(", ")}`, allowed);
}

/** Each value once, in endpoint order. */
export const unionOf = <E, T>(endpoints: readonly E[], pick: (e: E) => readonly T[]): T[] => [...new Set(endpoints.flatMap(pick))];

/**
 * The passthrough blocks of providers serving this model must name only allow-listed parameters
 * (a 400 names the first that is not); what the serving provider's block allows is merged into its
 * upstream body. Blocks of other providers are never forwarded.
 */
export function checkPassthrough(options: Record<string, Record<string, unknown>> | undefined, endpoints: readonly MediaEndpoint[], model: string): void {
  for (const [slug, block] of Object.entries(options ?? {})) {
    const serving = endpoints.filter((e) => e.provider.slug === slug);
    if (serving.length === 0) continue;
    const allowed = unionOf(serving, (e) => e.passthrough);
    const nested = typeof block.parameters === "object" && block.parameters !== null;
    for (const name of Object.keys(flatPassthrough(block)))
      if (!allowed.includes(name)) {
        const field = nested && name in (block.parameters as object) ? `provider.options.${slug}.parameters.${name}` : `provider.options.${slug}.${name}`;
        refused(field, `${field} is not a passthrough parameter of ${model} on ${slug}; allowed: ${allowed.join(", ") || "none"}`, allowed);
      }
  }
}

/** The serving endpoint's allow-listed passthrough parameters from the request's block for its provider. */
export function passthroughOf(options: Record<string, Record<string, unknown>> | undefined, endpoint: MediaEndpoint): Record<string, unknown> {
  const block = flatPassthrough(options?.[endpoint.provider.slug]);
  return Object.fromEntries(Object.entries(block).filter(([name]) => endpoint.passthrough.includes(name)));
}
