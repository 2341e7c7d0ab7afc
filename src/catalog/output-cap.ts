import type { CatalogEndpoint } from "./types";

/**
 * The output cap a request runs under on one endpoint: what the client asked for, else the
 * endpoint's own maximum (undefined when neither says).
 */
export function outputCap(endpoint: Pick<CatalogEndpoint, "maxCompletionTokens">, requested: number | undefined): number | undefined {
  return requested ?? endpoint.maxCompletionTokens ?? undefined;
}
