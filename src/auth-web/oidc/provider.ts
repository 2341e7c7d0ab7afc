import type * as Client from "openid-client";
import type { OidcConfig } from "../../config-identity";
import { openidClient } from "./openid-client";

/**
 * The identity provider as openid-client sees it: its discovery document
 * ({issuer}/.well-known/openid-configuration), the client's authentication at the token endpoint
 * as the document allows (client_secret_basic unless only client_secret_post is offered; none
 * without a secret), and ID token signatures checked against its JWKS. OpenID Connect allows a
 * client to skip that check for a token it fetched itself over TLS (Core 1.0, section 3.1.3.7);
 * the gateway checks it anyway, so a token that was not signed by the provider's keys is refused
 * whatever the transport.
 */
export type OidcProvider = { config: Client.Configuration; oidc: OidcConfig };

/** client_secret_basic is the default of the specification when the provider lists nothing (OpenID Connect Discovery 1.0, section 3). */
function clientAuthFor(client: typeof Client, oidc: OidcConfig, metadata: Client.ServerMetadata): Client.ClientAuth {
  if (!oidc.clientSecret) return client.None();
  const offered = metadata.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  return !offered.includes("client_secret_basic") && offered.includes("client_secret_post")
    ? client.ClientSecretPost(oidc.clientSecret)
    : client.ClientSecretBasic(oidc.clientSecret);
}

/** config.ts admits http only for a provider on this machine */
const insecure = (oidc: OidcConfig) => new URL(oidc.issuer).protocol === "http:";

async function discover(oidc: OidcConfig): Promise<OidcProvider> {
  const client = await openidClient();
  const options = insecure(oidc) ? { execute: [client.allowInsecureRequests] } : undefined;
  const found = await client.discovery(new URL(oidc.issuer), oidc.clientId, undefined, undefined, options);
  const metadata = found.serverMetadata();
  const config = new client.Configuration(metadata, oidc.clientId, undefined, clientAuthFor(client, oidc, metadata));
  if (insecure(oidc)) client.allowInsecureRequests(config);
  client.enableNonRepudiationChecks(config);
  return { config, oidc };
}

/**
 * The provider of `oidc`, discovered once and kept; a failed discovery is not kept, so the next
 * sign-in tries again (the provider may have been down).
 */
export function oidcProviders(): (oidc: OidcConfig) => Promise<OidcProvider> {
  const known = new Map<OidcConfig, Promise<OidcProvider>>();
  return (oidc) => {
    let provider = known.get(oidc);
    if (!provider) {
      provider = discover(oidc);
      known.set(oidc, provider);
      provider.catch(() => known.delete(oidc));
    }
    return provider;
  };
}
