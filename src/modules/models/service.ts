import type { AppContext } from "../../app-context";
import type { CatalogEndpoint, CatalogModel } from "../../catalog/types";
import { GatewayError } from "../../errors";
import { credentialResolver } from "../../gateway/credentials";
import { type FilterContext, filterEndpoints } from "../../gateway/routing/filters";
import type { ProviderPreferences } from "../../gateway/routing/preferences";
import type { Principal } from "../../http/principal";
import { mediaListingModels } from "../../media/listing-models";
import { modelFilters, outputModalityFilter } from "./filters";
import type { ListModelsQueryInput, ModelWire } from "./model";
import { endpointWire, modelWire, providerWire } from "./present";
import { modelsRss } from "./rss";

/** What the listings show: the chat catalog, then the speech, transcription and rerank models (which only an output_modalities filter naming them, or all, lets through). */
const listedModels = (ctx: AppContext): CatalogModel[] => [...ctx.catalog.models(), ...mediaListingModels(ctx.config)];

const DEFAULT_LIMIT = 500;

type Listed = { model: CatalogModel; endpoints: CatalogEndpoint[] };
export type ModelsPage = { data: ModelWire[]; links: { next: string | null }; total_count: number };

/** offset/limit over the list; `links.next` repeats the request URL with the next offset */
function page(items: Listed[], url: string, offset = 0, limit: number | undefined): ModelsPage {
  const size = limit ?? DEFAULT_LIMIT;
  const slice = items.slice(offset, offset + size);
  let next: string | null = null;
  if (offset + size < items.length) {
    const u = new URL(url);
    u.searchParams.set("offset", String(offset + size));
    u.searchParams.set("limit", String(size));
    next = u.pathname + u.search;
  }
  return { data: slice.map((x) => modelWire(x.model, x.endpoints)), links: { next }, total_count: items.length };
}

const topEndpoint = (x: Listed) => x.endpoints[0];
const promptPrice = (x: Listed) => topEndpoint(x)?.pricing.prompt ?? 0;

function sorter(ctx: AppContext, sort: string | undefined): ((a: Listed, b: Listed) => number) | null {
  const stat = (x: Listed) => (topEndpoint(x) ? ctx.router.stats.stats(topEndpoint(x)!.id) : null);
  switch (sort) {
    case "newest":
      return (a, b) => b.model.created - a.model.created;
    case "pricing-low-to-high":
      return (a, b) => promptPrice(a) - promptPrice(b);
    case "pricing-high-to-low":
      return (a, b) => promptPrice(b) - promptPrice(a);
    case "context-high-to-low":
      return (a, b) => b.model.contextLength - a.model.contextLength;
    case "throughput-high-to-low":
      return (a, b) => (stat(b)?.throughputLast30m?.p50 ?? -1) - (stat(a)?.throughputLast30m?.p50 ?? -1);
    case "latency-low-to-high":
      return (a, b) => (stat(a)?.latencyLast30m?.p50 ?? Infinity) - (stat(b)?.latencyLast30m?.p50 ?? Infinity);
    default:
      return null;
  }
}

/**
 * Which models the public listing shows: those declared in gateway.yaml and those with an
 * endpoint that can serve (its provider's key is set, or some workspace holds an enabled BYOK
 * credential for it). Model pickers list what /models returns; a model that can only answer
 * 503 does not belong there unless the operator asks (`catalog.list_unavailable`).
 */
export async function listable(ctx: AppContext): Promise<(m: CatalogModel) => boolean> {
  if (ctx.config.catalog.listUnavailable) return () => true;
  const declared = new Set(ctx.config.models.map((m) => m.id));
  const byok = new Set((await ctx.store.byok.list({}, 0, 100_000)).filter((c) => !c.disabled).map((c) => c.provider));
  return (m) => declared.has(m.id) || m.endpoints.some((e) => e.provider.apiKey !== undefined || byok.has(e.provider.slug));
}

async function filteredModels(ctx: AppContext, q: ListModelsQueryInput): Promise<Listed[]> {
  const filters = [...modelFilters(q), await listable(ctx)];
  const items = listedModels(ctx)
    .filter((m) => filters.every((f) => f(m)))
    .map((model) => ({ model, endpoints: model.endpoints }));
  const order = sorter(ctx, q.sort);
  return order ? items.sort(order) : items;
}

export async function listModels(ctx: AppContext, q: ListModelsQueryInput, url: string): Promise<ModelsPage> {
  return page(await filteredModels(ctx, q), url, q.offset, q.limit);
}

/** The listing as an RSS 2.0 feed (`use_rss=true`), linking each model to its chat page when asked. */
export async function modelsRssResponse(ctx: AppContext, q: ListModelsQueryInput, url: string, now: number): Promise<Response> {
  const models = (await filteredModels(ctx, q)).map((x) => x.model);
  const xml = modelsRss(models, { origin: new URL(url).origin, chatLinks: q.use_rss_chat_links === true, now });
  return new Response(xml, { headers: { "content-type": "application/rss+xml; charset=utf-8" } });
}

export async function countModels(ctx: AppContext, outputModalities: string | undefined): Promise<number> {
  const filters = [outputModalityFilter(outputModalities), await listable(ctx)];
  return listedModels(ctx).filter((m) => filters.every((f) => f(m))).length;
}

/** provider preferences a workspace may keep in its settings (`settings.provider`), applied to what it can use */
function workspacePreferences(principal: Principal): ProviderPreferences {
  const p = principal.workspace.settings?.provider;
  return p && typeof p === "object" ? (p as ProviderPreferences) : {};
}

/** The models the caller's workspace can call: endpoints with usable credentials that pass its provider preferences. */
export async function listUserModels(
  ctx: AppContext,
  principal: Principal,
  q: { offset?: number; limit?: number; output_modalities?: string },
  url: string,
): Promise<ModelsPage> {
  const credentials = await credentialResolver(ctx, principal);
  const filterCtx: FilterContext = {
    prefs: workspacePreferences(principal),
    sentParameters: [],
    estimatedPromptTokens: 0,
    requestedOutputTokens: 0,
    modalities: new Set(),
    hasCredentials: (e) => credentials(e).length > 0,
  };
  const byModality = outputModalityFilter(q.output_modalities);
  const items: Listed[] = [];
  for (const model of listedModels(ctx)) {
    if (!byModality(model)) continue;
    const endpoints = filterEndpoints(model, filterCtx, []);
    if (endpoints.length) items.push({ model, endpoints });
  }
  // both omitted: the whole list, as the contract says
  const limit = q.offset === undefined && q.limit === undefined ? Math.max(items.length, 1) : q.limit;
  return page(items, url, q.offset, limit);
}

function findModel(ctx: AppContext, author: string, slug: string): CatalogModel {
  const model = ctx.catalog.getModel(`${author}/${slug}`);
  if (!model) throw new GatewayError(404, `Model not found: ${author}/${slug}`);
  return model;
}

export function getModel(ctx: AppContext, author: string, slug: string): ModelWire {
  return modelWire(findModel(ctx, author, slug));
}

/** A model by its full id `author/slug` (the slash may have reached us percent-encoded). */
export function getModelById(ctx: AppContext, id: string): ModelWire {
  const model = ctx.catalog.getModel(id);
  if (!model) throw new GatewayError(404, `Model not found: ${id}`);
  return modelWire(model);
}

/** a model's endpoints with their live figures and circuit status (also the console's catalog page) */
export function modelEndpoints(ctx: Pick<AppContext, "router">, model: CatalogModel) {
  return endpointsWire(ctx, model, model.endpoints);
}

function endpointsWire(ctx: Pick<AppContext, "router">, model: CatalogModel, endpoints: CatalogEndpoint[]) {
  const { stats, circuits } = ctx.router;
  return endpoints.map((e) => endpointWire(model, e, stats.stats(e.id), circuits.health(e.id)));
}

export function listEndpoints(ctx: AppContext, author: string, slug: string) {
  const model = findModel(ctx, author, slug);
  const wire = modelWire(model);
  return {
    id: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    architecture: { ...wire.architecture, tokenizer: wire.architecture.tokenizer ?? null, instruct_type: wire.architecture.instruct_type ?? null },
    endpoints: endpointsWire(ctx, model, model.endpoints),
  };
}

/** every endpoint of a zero-data-retention provider, across all models */
export function listZdrEndpoints(ctx: AppContext) {
  return ctx.catalog.models().flatMap((m) =>
    endpointsWire(
      ctx,
      m,
      m.endpoints.filter((e) => e.provider.zdr),
    ),
  );
}

export function listProviders(ctx: AppContext) {
  return ctx.catalog
    .providers()
    .map(providerWire)
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

export function listEmbeddingModels(ctx: AppContext, q: { offset?: number; limit?: number }, url: string): ModelsPage {
  const items = ctx.catalog
    .models()
    .filter((m) => m.outputModalities.includes("embeddings"))
    .map((model) => ({ model, endpoints: model.endpoints }));
  return page(items, url, q.offset, q.limit);
}
