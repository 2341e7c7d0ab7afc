import generated from "./default-catalog.generated.json" with { type: "json" };
import type { DefaultCatalogData, DefaultProvider } from "./default-catalog-data";

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

const PLACEHOLDER = /\{([A-Z][A-Z0-9_]*)\}/g;

/** The variables a default provider needs before it can serve: those its base URL names, then its key's. */
export function providerVariables(provider: DefaultProvider): string[] {
  return [...[...provider.baseUrl.matchAll(PLACEHOLDER)].map((m) => m[1]!), provider.env];
}

/** The provider's base URL with its variables filled in; undefined while one of them is unset. */
export function resolvedBaseUrl(provider: DefaultProvider, env: Record<string, string | undefined>): string | undefined {
  let missing = false;
  const url = provider.baseUrl.replace(PLACEHOLDER, (_, name: string) => {
    const value = env[name];
    if (!value) missing = true;
    return value ?? "";
  });
  return missing ? undefined : url;
}
