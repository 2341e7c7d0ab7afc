import { MIN_OUTPUT_TOKENS } from "../formats/output-token-minimum";
import type { CatalogEndpoint } from "./types";

/**
 * The output cap a request runs under on one endpoint: what the client asked for, else the
 * endpoint's own maximum (undefined when neither says), and never under what the endpoint's API
 * takes (so an answer may run up to that minimum; the reservation counts it too).
 */
export function outputCap(endpoint: Pick<CatalogEndpoint, "maxCompletionTokens" | "provider">, requested: number | undefined): number | undefined {
  const cap = requested ?? endpoint.maxCompletionTokens ?? undefined;
  return cap === undefined ? undefined : Math.max(cap, MIN_OUTPUT_TOKENS[endpoint.provider.api]);
}
