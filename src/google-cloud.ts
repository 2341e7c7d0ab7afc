/**
 * What the configuration, the catalog, BYOK and the Vertex API all need to know of Google Cloud:
 * a service-account key file (https://cloud.google.com/iam/docs/keys-create-delete) and where
 * Vertex AI answers for a location (https://cloud.google.com/vertex-ai/docs/general/locations).
 */

/** The fields of a service-account key the gateway uses: who signs, with what, for whom. */
export type ServiceAccount = {
  clientEmail: string;
  /** PEM, PKCS #8 */
  privateKey: string;
  privateKeyId?: string;
  /** where the signed grant is exchanged for an access token */
  tokenUri: string;
  /** the project the account belongs to: Vertex calls go there unless the provider names another */
  projectId?: string;
};

export type ServiceAccountRead = { ok: true; account: ServiceAccount } | { ok: false; problem: string };

const PEM_KEY = /-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----/;

/** Reads a service-account key file's JSON text; `problem` says what is wrong, never what the key is. */
export function readServiceAccount(text: string): ServiceAccountRead {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: "is not JSON (a service-account key file is)" };
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return { ok: false, problem: "is not a JSON object" };
  const fields = json as Record<string, unknown>;
  if (fields.type !== "service_account") return { ok: false, problem: 'has no "type": "service_account"' };
  const stringField = (name: string) => (typeof fields[name] === "string" && fields[name] !== "" ? (fields[name] as string) : undefined);
  const clientEmail = stringField("client_email");
  if (!clientEmail) return { ok: false, problem: "has no client_email" };
  const privateKey = stringField("private_key");
  if (!privateKey || !PEM_KEY.test(privateKey)) return { ok: false, problem: "has no PEM private_key" };
  const tokenUri = stringField("token_uri") ?? GOOGLE_TOKEN_URI;
  if (!/^https?:\/\//.test(tokenUri)) return { ok: false, problem: "has a token_uri that is not an http(s) URL" };
  const projectId = stringField("project_id");
  if (projectId !== undefined && !PROJECT_ID.test(projectId)) return { ok: false, problem: "has a project_id that is not a Google Cloud project id" };
  const privateKeyId = stringField("private_key_id");
  return { ok: true, account: { clientEmail, privateKey, tokenUri, ...(privateKeyId ? { privateKeyId } : {}), ...(projectId ? { projectId } : {}) } };
}

/** Google's OAuth 2.0 token endpoint, the token_uri of every key Google issues. */
export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

/** A project id, or a domain-scoped one (`example.com:my-project`). */
const PROJECT_ID = /^(?:[a-z0-9.-]+:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

/** Where Vertex AI is called when the provider names no location. */
export const DEFAULT_VERTEX_LOCATION = "global";

/** Vertex AI's endpoint for a location: the global one has no location prefix. */
export function vertexBaseUrl(location: string): string {
  return location === "global" ? "https://aiplatform.googleapis.com/v1" : `https://${location}-aiplatform.googleapis.com/v1`;
}
