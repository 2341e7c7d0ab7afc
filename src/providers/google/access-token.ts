import { readServiceAccount, type ServiceAccount } from "../../google-cloud";
import { upstreamFetch } from "../transport";
import { CredentialExchangeError } from "../upstream-api";

/**
 * Access tokens for service accounts: a JWT signed with the account's key (RS256), granted at its
 * token_uri for the cloud-platform scope (https://developers.google.com/identity/protocols/oauth2/service-account#httprest).
 * A token is kept until shortly before it expires; callers that need one while it is being
 * fetched wait for that one fetch.
 */

const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** A token this close to its expiry is fetched anew: google-auth-library's own margin. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** A grant lives an hour, the most Google takes. */
const GRANT_LIFETIME_S = 3600;
/** The token endpoint answers in well under this; a fetch many callers share is not bound to any one of them. */
const EXCHANGE_TIMEOUT_MS = 30_000;
/** Distinct credentials kept (the deployment's own and its workspaces' BYOK accounts); the oldest go first. */
const MAX_KEPT = 1000;

type Token = { value: string; expiresAt: number };

const tokens = new Map<string, Token>();
const fetching = new Map<string, Promise<Token>>();

function accountOf(credential: string): ServiceAccount {
  const read = readServiceAccount(credential);
  if (!read.ok) throw new CredentialExchangeError(`the service-account credential ${read.problem}`, 401);
  return read.account;
}

/** jose, loaded with the first grant (or at start when a Vertex provider has the gateway's own key): about 4 MB resident otherwise unused */
let jose: Promise<typeof import("jose")> | undefined;
export const loadJose = () => (jose ??= import("jose"));

async function signedGrant(account: ServiceAccount, now: number): Promise<string> {
  const { importPKCS8, SignJWT } = await loadJose();
  let key: CryptoKey;
  try {
    key = await importPKCS8(account.privateKey, "RS256");
  } catch {
    throw new CredentialExchangeError("the service account's private_key is not an RSA key in PKCS #8 PEM", 401);
  }
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) })
    .setIssuer(account.clientEmail)
    .setAudience(account.tokenUri)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + GRANT_LIFETIME_S)
    .sign(key);
}

/** The token endpoint's refusal, as much of it as says why (OAuth's `error` and `error_description`). */
async function refusal(res: Response): Promise<string> {
  const body = (await res.json().catch(() => ({}))) as { error?: unknown; error_description?: unknown };
  const why = [body.error, body.error_description].filter((v) => typeof v === "string").join(": ");
  return why === "" ? `HTTP ${res.status}` : `${res.status} ${why}`;
}

async function exchange(credential: string, clock: () => number): Promise<Token> {
  const account = accountOf(credential);
  const assertion = await signedGrant(account, clock());
  const res = await upstreamFetch({
    url: account.tokenUri,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    rawBody: new URLSearchParams({ grant_type: GRANT_TYPE, assertion }).toString(),
    signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
  });
  // a refused grant is the credential's fault; the endpoint failing is not
  if (res.status >= 400 && res.status < 500)
    throw new CredentialExchangeError(`the token endpoint refused the service account ${account.clientEmail} (${await refusal(res)})`, 401);
  if (!res.ok) throw new Error(`the token endpoint failed (${await refusal(res)})`);
  const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== "string" || body.access_token === "") throw new Error("the token endpoint answered without an access_token");
  const lifetime = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : GRANT_LIFETIME_S;
  return { value: body.access_token, expiresAt: clock() + lifetime * 1000 };
}

function keep(credential: string, token: Token): void {
  tokens.delete(credential);
  tokens.set(credential, token);
  if (tokens.size > MAX_KEPT) tokens.delete(tokens.keys().next().value!);
}

/** Waits for `promise`, or rejects as soon as `signal` aborts (the shared fetch goes on for the others). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** A live access token for the service account whose key file `credential` is. */
export async function accessToken(credential: string, signal: AbortSignal, clock: () => number = Date.now): Promise<string> {
  const kept = tokens.get(credential);
  if (kept && kept.expiresAt - REFRESH_MARGIN_MS > clock()) return kept.value;
  let pending = fetching.get(credential);
  if (!pending) {
    pending = exchange(credential, clock)
      .then((token) => {
        keep(credential, token);
        return token;
      })
      .finally(() => fetching.delete(credential));
    fetching.set(credential, pending);
  }
  return (await unlessAborted(pending, signal)).value;
}

/** The upstream refused the token: the next call fetches another. */
export function forgetAccessToken(credential: string): void {
  tokens.delete(credential);
}
