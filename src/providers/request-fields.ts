/** The last changes to a body before it goes to a provider: the client's own top-level fields beside the encoded ones. */

type Body = Record<string, unknown>;

/**
 * The encoded body with the client's unknown top-level fields beside it. The encoded fields win a
 * clash: the gateway's `model`, `stream` and the like are not the client's to override.
 */
export function withUnknownFields(encoded: Body, unknown: Readonly<Body>): Body {
  for (const _ in unknown) return { ...unknown, ...encoded };
  return encoded;
}
