/**
 * A small OpenID Connect provider on loopback for tests: discovery, a JWKS, the authorization code
 * flow with PKCE S256 (RFC 7636) and ID tokens signed with jose (RS256). /authorize signs in
 * whoever `login` names at once (no page), as a provider with a live session would, and sends
 * the browser back with a code. The token endpoint checks the client's secret (Basic or in the
 * body, as `authMethods` says), the code, the redirect URI and the PKCE verifier, as a real one
 * does. `tamper` makes the next ID tokens wrong in one way each, for the relying party's checks.
 */
import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from "jose";

export type LoginClaims = { sub: string; email?: string; email_verified?: boolean; name?: string; groups?: string[] };
export type Tamper = { rogueKey?: boolean; audience?: string; expired?: boolean; nonce?: string; issuer?: string };
type IssuedCode = { claims: LoginClaims; nonce: string | null; challenge: string; redirectUri: string; clientId: string };
export type TokenRequest = { authorization: string | null; body: Record<string, string> };

export type OidcTestProvider = {
  url: string;
  clientId: string;
  clientSecret: string;
  /** who /authorize signs in next */
  login: LoginClaims;
  tamper: Tamper;
  tokenRequests: TokenRequest[];
  stop(): Promise<void>;
};

const base64url = (bytes: ArrayBuffer) => Buffer.from(bytes).toString("base64url");

export async function startOidcProvider(opts: { authMethods?: string[]; clientId?: string; clientSecret?: string } = {}): Promise<OidcTestProvider> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const rogue = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, IssuedCode>();
  const provider: OidcTestProvider = {
    url: "",
    clientId: opts.clientId ?? "gateway",
    clientSecret: opts.clientSecret ?? "oidc-client-secret-0123456789",
    login: { sub: "user-1", email: "ada@example.com", email_verified: true },
    tamper: {},
    tokenRequests: [],
    stop: async () => server.stop(true),
  };
  const idToken = async (code: IssuedCode) => {
    const t = provider.tamper;
    const now = Math.floor(Date.now() / 1000);
    const { sub, ...claims } = code.claims;
    const key: CryptoKey = t.rogueKey ? rogue.privateKey : privateKey;
    return new SignJWT({ ...claims, nonce: t.nonce ?? code.nonce ?? undefined })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setIssuer(t.issuer ?? provider.url)
      .setSubject(sub)
      .setAudience(t.audience ?? code.clientId)
      .setIssuedAt(t.expired ? now - 7200 : now)
      .setExpirationTime(t.expired ? now - 3600 : now + 300)
      .sign(key);
  };
  const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "cache-control": "no-store" } });

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/.well-known/openid-configuration")
        return json(200, {
          issuer: provider.url,
          authorization_endpoint: `${provider.url}/authorize`,
          token_endpoint: `${provider.url}/token`,
          jwks_uri: `${provider.url}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: opts.authMethods ?? ["client_secret_basic"],
        });
      if (url.pathname === "/jwks") return json(200, { keys: [jwk] });
      if (url.pathname === "/authorize") {
        const q = url.searchParams;
        if (q.get("client_id") !== provider.clientId) return json(400, { error: "invalid_client" });
        if (q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge"))
          return json(400, { error: "invalid_request" });
        const code = crypto.randomUUID();
        const redirectUri = q.get("redirect_uri")!;
        codes.set(code, {
          claims: { ...provider.login },
          nonce: q.get("nonce"),
          challenge: q.get("code_challenge")!,
          redirectUri,
          clientId: provider.clientId,
        });
        const back = new URL(redirectUri);
        back.searchParams.set("code", code);
        if (q.get("state") !== null) back.searchParams.set("state", q.get("state")!);
        return new Response(null, { status: 302, headers: { location: back.href } });
      }
      if (url.pathname === "/token" && request.method === "POST") {
        const body = Object.fromEntries(new URLSearchParams(await request.text()));
        const authorization = request.headers.get("authorization");
        provider.tokenRequests.push({ authorization, body });
        const basic = authorization?.startsWith("Basic ") ? Buffer.from(authorization.slice(6), "base64").toString() : null;
        const [id, secret] = basic ? basic.split(":").map(decodeURIComponent) : [body.client_id, body.client_secret];
        if (id !== provider.clientId || secret !== provider.clientSecret) return json(401, { error: "invalid_client" });
        const code = codes.get(body.code ?? "");
        codes.delete(body.code ?? "");
        if (!code || body.grant_type !== "authorization_code" || body.redirect_uri !== code.redirectUri) return json(400, { error: "invalid_grant" });
        const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body.code_verifier ?? "")));
        if (challenge !== code.challenge) return json(400, { error: "invalid_grant", error_description: "PKCE verification failed" });
        return json(200, { access_token: crypto.randomUUID(), token_type: "Bearer", expires_in: 300, id_token: await idToken(code) });
      }
      return json(404, { error: "not_found" });
    },
  });
  provider.url = `http://127.0.0.1:${server.port}`;
  return provider;
}
