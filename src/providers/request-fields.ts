/**
 * The last changes to a body before it goes to a provider: the client's own top-level fields
 * beside the encoded ones, and the fields the operator told the gateway never to send.
 */

type Body = Record<string, unknown>;

/**
 * The encoded body with the client's unknown top-level fields beside it. The encoded fields win a
 * clash: the gateway's `model`, `stream` and the like are not the client's to override.
 */
export function withUnknownFields(encoded: Body, unknown: Readonly<Body>): Body {
  for (const _ in unknown) return { ...unknown, ...encoded };
  return encoded;
}

/**
 * `providers[].drop_params`: the named top-level fields removed, as spelled in the body sent, the
 * gateway's own (`stream_options`) included. Self-hosted servers refuse fields they do not serve
 * (vLLM and SGLang a `service_tier`, an older build a `stream_options`).
 */
export function withoutDroppedParams(body: Body, dropped: readonly string[] | undefined): Body {
  if (!dropped?.some((name) => name in body)) return body;
  const kept: Body = {};
  for (const key in body) if (!dropped.includes(key)) kept[key] = body[key];
  return kept;
}
