import type { Catalog } from "./types";

/**
 * Endpoints declared without any price. They serve for free and so never count against a
 * key's limit (a classic way for spend to escape budgets); listing them at start makes that
 * a visible choice. A price of "0" written out is taken as meant.
 */
export function unpricedEndpoints(catalog: Catalog): string[] {
  const out: string[] = [];
  for (const model of catalog.models()) {
    for (const e of model.endpoints) if (Object.keys(e.pricingStrings).length === 0) out.push(`${model.id} via ${e.provider.slug}`);
  }
  return out;
}
