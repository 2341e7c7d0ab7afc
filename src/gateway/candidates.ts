import type { Catalog, CatalogEndpoint, CatalogModel } from "../catalog/types";
import { GatewayError } from "../errors";

/** A key to call an endpoint with: the gateway's own, or one of the caller's BYOK credentials. */
export type Credential = { apiKey: string; isByok: boolean };

/** One way to serve the request: an endpoint and the credential to call it with. */
export type Candidate = {
  endpoint: CatalogEndpoint;
  model: CatalogModel;
  apiKey: string;
  isByok: boolean;
};

/** The models a request may be served by, in order: `model`, then each of `models`. */
export function requestedModels(catalog: Catalog, primary: string, fallbacks: string[] = []): CatalogModel[] {
  const ids = [primary, ...fallbacks.filter((m) => m !== primary)];
  const models = ids.map((id) => catalog.getModel(id)).filter((m): m is CatalogModel => m !== undefined);
  if (!catalog.getModel(primary) && models.length === 0) throw new GatewayError(404, `Model not found: ${primary}. ${HOW_MODELS_ARE_ADDED}`);
  return models;
}

/** What a caller of a model the gateway does not know needs to hear: how one becomes known. */
const HOW_MODELS_ARE_ADDED =
  "Models are declared under models: in gateway.yaml, or come from the default catalog once their provider's API key is set (for example OPENAI_API_KEY); GET /api/v1/models lists the models that can serve";

/** The gateway's own key for the endpoint's provider (BYOK credentials join in later). */
export function ownCredentials(endpoint: { provider: { apiKey?: string } }): Credential[] {
  return endpoint.provider.apiKey ? [{ apiKey: endpoint.provider.apiKey, isByok: false }] : [];
}
