import { type AnyElysia, Elysia, type InternalRoute } from "elysia";
import { ErrorBodySchema, withErrorResponses } from "./error-responses";
import { toJsonSchema31 } from "./json-schema";
import { documentSecurity, securitySchemes } from "./security";
import { type Document, mapOperations } from "./walk";

export type DocumentInfo = { title: string; version: string; description: string };

/** What the generator reads of an app: the routes of the whole app once a plugin is mounted, and its named models. */
type RouteSource = { getGlobalRoutes(): InternalRoute[]; getGlobalDefinitions(): unknown };

/**
 * The generator documents a body under the content types of its route's parsers, and names none
 * for a parse function. Every route reads its body with one (json-body.ts), as JSON; so the
 * generator is shown the routes with the parser it can name.
 */
function readingJson(source: RouteSource): AnyElysia {
  const view: RouteSource = {
    getGlobalRoutes: () => source.getGlobalRoutes().map((route) => ({ ...route, hooks: { ...route.hooks, parse: [{ fn: "json" }] } })),
    getGlobalDefinitions: () => source.getGlobalDefinitions(),
  };
  return view as unknown as AnyElysia;
}

/**
 * The API document of every route the app has, as OpenAPI 3.1 (lint-clean with Redocly's
 * recommended rules). The generator is loaded on the first request for the document: most
 * gateways never serve it, and loaded at start it is about a megabyte of the idle RSS.
 */
export async function buildDocument(source: RouteSource, info: DocumentInfo): Promise<Document> {
  const { toOpenAPISchema } = await import("@elysiajs/openapi");
  const generated = toOpenAPISchema(readingJson(source));
  const doc: Document = {
    openapi: "3.1.2",
    info,
    // paths carry their /api/v1 prefix; the document is served by the gateway it describes
    servers: [{ url: "/", description: "This gateway" }],
    paths: generated.paths as Document["paths"],
    components: { schemas: { ...generated.components.schemas, Error: ErrorBodySchema }, securitySchemes },
  };
  return toJsonSchema31(mapOperations(doc, (operation) => withErrorResponses(documentSecurity(operation)))) as Document;
}

/** GET /api/v1/openapi.json, built on first use and again only when routes were added since. */
export function openapiDocumentRoutes(info: DocumentInfo) {
  const plugin = new Elysia({ name: "openapi-document" });
  // once mounted, the plugin's getGlobalRoutes answers for the whole app (protected in Elysia's types)
  const source = plugin as unknown as RouteSource;
  let cached: { routes: number; document: Document } | undefined;
  return plugin.get(
    "/api/v1/openapi.json",
    async () => {
      const routes = source.getGlobalRoutes().length;
      if (cached?.routes !== routes) cached = { routes, document: await buildDocument(source, info) };
      return cached.document;
    },
    { detail: { hide: true } },
  );
}
