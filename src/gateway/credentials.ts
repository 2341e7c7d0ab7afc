import type { AppContext } from "../app-context";
import type { CatalogEndpoint } from "../catalog/types";
import type { Principal } from "../http/principal";
import { ownCredentials } from "./candidates";
import type { Credential } from "./routing/plan";

/** The credentials a request may use for an endpoint, in the order to try them. */
export type CredentialResolver = (endpoint: CatalogEndpoint) => Credential[];

export function credentialResolver(_ctx: AppContext, _principal: Principal): CredentialResolver {
  return ownCredentials;
}
