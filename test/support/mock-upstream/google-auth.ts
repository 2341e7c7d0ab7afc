// Google's side of a service account, for the mock: the OAuth token endpoint that takes a signed
// JWT grant (https://developers.google.com/identity/protocols/oauth2/service-account#httprest),
// checks its RS256 signature with the account's public key, and hands out access tokens that the
// mock's Vertex AI paths then require, as Google's would.
import { decodeProtectedHeader, jwtVerify } from "jose";
import { googleErrorBody } from "./render-gemini.ts";

const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";

export type VerifiedGrant = { iss: string; aud: string; scope: string; kid?: string; lifetimeSeconds: number };

export interface MockGoogleAuth {
  /** the token_uri to put in a service account's key file */
  tokenUri: string;
  /** Accept grants signed by this account's key. */
  trust(account: { clientEmail: string; publicKey: CryptoKey }): void;
  /** Every POST to the token endpoint since the last reset, valid or not. */
  readonly tokenRequests: number;
  /** The grants whose signature and claims checked out, in order. */
  readonly grants: readonly VerifiedGrant[];
  /** `expires_in` of the tokens handed out from now on (seconds; default 3600). */
  expiresIn: number;
  /** How long the token endpoint takes to answer (ms; default 0). */
  tokenDelayMs: number;
  /** Every token handed out so far is refused from now on (Vertex answers 401), as after a revocation. */
  revokeTokens(): void;
  /** Bearer tokens the Vertex paths refused with 401 since the last reset. */
  readonly refused: number;
}

export type GoogleAuthState = MockGoogleAuth & {
  /** Answers a POST to the token endpoint. */
  token(req: Request): Promise<Response>;
  /** A 401 for a Vertex call whose bearer token this endpoint did not hand out (or revoked); undefined when it may go on. */
  refuse(authorization: string | null): Response | undefined;
  reset(): void;
};

const oauthError = (error: string, description: string) => Response.json({ error, error_description: description }, { status: 400 });

export function googleAuth(origin: string): GoogleAuthState {
  const keys = new Map<string, CryptoKey>();
  const live = new Set<string>();
  let issued = 0;
  const state = {
    tokenUri: `${origin}/token`,
    tokenRequests: 0,
    grants: [] as VerifiedGrant[],
    expiresIn: 3600,
    tokenDelayMs: 0,
    refused: 0,
    trust(account: { clientEmail: string; publicKey: CryptoKey }) {
      keys.set(account.clientEmail, account.publicKey);
    },
    revokeTokens() {
      live.clear();
    },
    reset() {
      state.tokenRequests = 0;
      state.grants = [];
      state.expiresIn = 3600;
      state.tokenDelayMs = 0;
      state.refused = 0;
    },
    async token(req: Request): Promise<Response> {
      state.tokenRequests++;
      const form = new URLSearchParams(await req.text());
      if (state.tokenDelayMs > 0) await Bun.sleep(state.tokenDelayMs);
      if (form.get("grant_type") !== GRANT_TYPE) return oauthError("unsupported_grant_type", "Invalid grant_type.");
      const assertion = form.get("assertion") ?? "";
      let iss: string;
      try {
        iss = JSON.parse(Buffer.from(assertion.split(".")[1] ?? "", "base64url").toString()).iss;
      } catch {
        return oauthError("invalid_grant", "Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.");
      }
      const key = keys.get(iss);
      if (!key) return oauthError("invalid_grant", "Invalid grant: account not found");
      try {
        const { payload } = await jwtVerify(assertion, key, { algorithms: ["RS256"], issuer: iss, audience: state.tokenUri });
        if (payload.scope !== SCOPE) return oauthError("invalid_scope", "Invalid OAuth scope or ID token audience provided.");
        const lifetimeSeconds = (payload.exp ?? 0) - (payload.iat ?? 0);
        if (lifetimeSeconds <= 0 || lifetimeSeconds > 3600)
          return oauthError("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.");
        const { kid } = decodeProtectedHeader(assertion);
        state.grants.push({ iss, aud: String(payload.aud), scope: String(payload.scope), ...(kid ? { kid } : {}), lifetimeSeconds });
      } catch {
        return oauthError("invalid_grant", "Invalid JWT Signature.");
      }
      const token = `ya29.mock-${++issued}`;
      live.add(token);
      return Response.json({ access_token: token, expires_in: state.expiresIn, token_type: "Bearer" });
    },
    refuse(authorization: string | null): Response | undefined {
      const token = authorization?.replace(/^Bearer /, "");
      if (token !== undefined && live.has(token)) return undefined;
      state.refused++;
      return Response.json(
        googleErrorBody(
          401,
          "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        ),
        { status: 401 },
      );
    },
  };
  return state;
}
