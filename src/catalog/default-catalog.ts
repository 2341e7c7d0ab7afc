import generated from "./default-catalog.generated.json" with { type: "json" };
import type { DefaultCatalogData } from "./default-catalog-data";

/**
 * The catalog embedded in the binary (a static JSON import, so `bun build --compile` bundles it),
 * generated from models.dev by scripts/generate-catalog.ts. gateway.yaml is merged over it.
 */
export const DEFAULT_CATALOG = generated as DefaultCatalogData;

let slugs: Set<string> | undefined;

/** provider slugs of the default catalog, for checking gateway.yaml references */
export function defaultProviderSlugs(): Set<string> {
  return (slugs ??= new Set(DEFAULT_CATALOG.providers.map((p) => p.slug)));
}
