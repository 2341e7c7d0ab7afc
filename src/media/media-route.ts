import type { AppContext } from "../app-context";
import { GatewayError } from "../errors";
import { credentialResolver } from "../gateway/credentials";
import type { Principal } from "../http/principal";
import type { MediaEndpoint, MediaModel } from "./media-catalog";

/** One way to serve a media request: an endpoint and the key to call it with (the gateway's own, or a BYOK credential). */
export type MediaCandidate<E extends MediaEndpoint = MediaEndpoint> = { endpoint: E; model: MediaModel<E>; apiKey: string; isByok: boolean };

/** The routing part of a media request's `provider` object, as for chat. */
export type MediaRoutePrefs = { order?: string[] | null; only?: string[] | null; ignore?: string[] | null; allow_fallbacks?: boolean | null };

const norm = (s: string) => s.toLowerCase();
const names = (e: MediaEndpoint) => [norm(e.provider.slug), norm(e.provider.name)];
const listed = (e: MediaEndpoint, list: readonly string[]) => list.some((n) => names(e).includes(norm(n)));
const orderIndex = (e: MediaEndpoint, order: readonly string[]) => {
  const i = order.findIndex((n) => names(e).includes(norm(n)));
  return i === -1 ? Number.POSITIVE_INFINITY : i;
};

/**
 * The candidates of a media model, in try order: its endpoints in their configured order
 * (`provider.order` first; only those with `allow_fallbacks: false`), without those
 * `provider.only` / `provider.ignore` rule out, open circuits last, one candidate per usable
 * credential (BYOK as for chat). None left: 503 saying why.
 */
export async function mediaCandidates<E extends MediaEndpoint>(
  ctx: AppContext,
  principal: Principal,
  model: MediaModel<E>,
  prefs: MediaRoutePrefs = {},
): Promise<MediaCandidate<E>[]> {
  const removed: string[] = [];
  const kept = model.endpoints.filter((e) => {
    if (prefs.only?.length && !listed(e, prefs.only)) removed.push(`provider.only removed ${e.id}`);
    else if (prefs.ignore?.length && listed(e, prefs.ignore)) removed.push(`provider.ignore removed ${e.id}`);
    else return true;
    return false;
  });
  const order = prefs.order ?? [];
  // a stable sort keeps the configured order among endpoints the order does not name
  let ordered = [...kept].sort((a, b) => Math.min(orderIndex(a, order), order.length) - Math.min(orderIndex(b, order), order.length));
  if (prefs.allow_fallbacks === false && order.length > 0) ordered = ordered.filter((e) => orderIndex(e, order) !== Number.POSITIVE_INFINITY);
  else if (prefs.allow_fallbacks === false) ordered = ordered.slice(0, 1);
  const { circuits } = ctx.router;
  ordered = [...ordered.filter((e) => circuits.health(e.id) !== "open"), ...ordered.filter((e) => circuits.health(e.id) === "open")];

  const credentials = await credentialResolver(ctx, principal);
  const candidates = ordered.flatMap((endpoint) => credentials(endpoint).map((c) => ({ endpoint, model, apiKey: c.apiKey, isByok: c.isByok })));
  if (candidates.length === 0) {
    const keyless = ordered.map(
      (e) => `${e.id} has no usable credentials: set ${e.provider.envVar ?? `api_key for provider ${e.provider.slug}`} or add a BYOK credential`,
    );
    const why = [...removed, ...keyless].join("; ") || "no endpoints";
    throw new GatewayError(503, `No endpoint satisfies the routing requirements for ${model.id}: ${why}`, { model: model.id });
  }
  return candidates;
}
