import { stringsEqual } from "../../crypto/secret-token";

/**
 * PKCE (RFC 7636). A verifier is 43 to 128 characters of the unreserved set; an S256 challenge
 * is BASE64URL(SHA-256(ASCII(verifier))), always 43 characters; a plain challenge is the verifier
 * itself. A challenge sent without a method is plain (RFC 7636 §4.3).
 */
export type ChallengeMethod = "S256" | "plain";

export const VERIFIER_PATTERN = "^[A-Za-z0-9._~-]{43,128}$";
const VERIFIER = new RegExp(VERIFIER_PATTERN);
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function s256Challenge(verifier: string): string {
  return new Bun.CryptoHasher("sha256").update(verifier, "latin1").digest("base64url");
}

export const verifierWellFormed = (verifier: string): boolean => VERIFIER.test(verifier);

/** What is wrong with a challenge for its method; null when it is one a verifier can match. */
export function challengeProblem(challenge: string, method: ChallengeMethod): string | null {
  if (method === "S256") return S256_CHALLENGE.test(challenge) ? null : "an S256 challenge is 43 base64url characters (BASE64URL(SHA-256(verifier)))";
  return VERIFIER.test(challenge) ? null : "a plain challenge is the verifier itself: 43 to 128 characters of A-Z a-z 0-9 - . _ ~";
}

/** The verifier answers the challenge stored with the code, under the method stored with it. */
export function verifierMatches(challenge: string, method: ChallengeMethod, verifier: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  return stringsEqual(method === "S256" ? s256Challenge(verifier) : verifier, challenge);
}
