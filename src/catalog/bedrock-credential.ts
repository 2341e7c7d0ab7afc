/**
 * A Bedrock credential as one string, the form every credential of the gateway takes (a
 * provider's own key, a BYOK key): a Bedrock API key, sent as a bearer token
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html), or the JSON text of
 * AWS access keys, which sign each call with Signature Version 4. A region in the JSON (a BYOK
 * key's) wins over the provider's.
 */
export type AwsKeys = { accessKeyId: string; secretAccessKey: string; sessionToken?: string; region?: string };

export type BedrockCredential = { kind: "api-key"; token: string } | ({ kind: "aws-keys" } & AwsKeys);

export const AWS_KEYS_SHAPE = 'JSON text {"access_key_id", "secret_access_key", "region"?, "session_token"?}';

const FIELDS = new Set(["access_key_id", "secret_access_key", "region", "session_token"]);

/** The credential, or why the text is none (for a 400 naming `key`). */
export function parseBedrockCredential(text: string): BedrockCredential | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { error: "is empty" };
  if (!trimmed.startsWith("{")) return { kind: "api-key", token: trimmed };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { error: `is not valid JSON (expected ${AWS_KEYS_SHAPE})` };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { error: `must be ${AWS_KEYS_SHAPE}` };
  const fields = parsed as Record<string, unknown>;
  const unknown = Object.keys(fields).find((k) => !FIELDS.has(k));
  if (unknown !== undefined) return { error: `has an unknown field '${unknown}' (expected ${AWS_KEYS_SHAPE})` };
  for (const field of FIELDS) {
    const value = fields[field];
    const required = field === "access_key_id" || field === "secret_access_key";
    if (value === undefined && !required) continue;
    if (typeof value !== "string" || value.trim() === "") return { error: `needs '${field}' as a non-empty string` };
  }
  const keys: BedrockCredential = { kind: "aws-keys", accessKeyId: fields.access_key_id as string, secretAccessKey: fields.secret_access_key as string };
  if (typeof fields.session_token === "string") keys.sessionToken = fields.session_token;
  if (typeof fields.region === "string") keys.region = fields.region;
  return keys;
}

/** AWS keys as the credential text `parseBedrockCredential` reads. */
export function awsKeysText(keys: AwsKeys): string {
  const json: Record<string, string> = { access_key_id: keys.accessKeyId, secret_access_key: keys.secretAccessKey };
  if (keys.sessionToken) json.session_token = keys.sessionToken;
  if (keys.region) json.region = keys.region;
  return JSON.stringify(json);
}

/** The AWS_* variables, as src/config.ts reads them. */
export type AwsEnvironment = { region?: string; accessKeyId?: string; secretAccessKey?: string; sessionToken?: string; bearerToken?: string };

/**
 * The region a Bedrock API key serves when nothing names one: keys are not tied to a region the
 * way SigV4 signatures are, and Bedrock's API-key quickstart calls us-east-1.
 */
export const DEFAULT_API_KEY_REGION = "us-east-1";

/** What the AWS_* variables give a Bedrock provider that names no credential of its own. */
export type EnvironmentCredential = { credential: string; region: string; enabledBy: string };

/**
 * AWS_BEARER_TOKEN_BEDROCK (the variable AWS's SDKs read a Bedrock API key from) wins, as it does
 * in those SDKs; else AWS_REGION with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and
 * AWS_SESSION_TOKEN). Nothing, when neither is complete.
 */
export function environmentCredential(aws: AwsEnvironment): EnvironmentCredential | undefined {
  if (aws.bearerToken) return { credential: aws.bearerToken, region: aws.region ?? DEFAULT_API_KEY_REGION, enabledBy: "AWS_BEARER_TOKEN_BEDROCK" };
  if (!aws.region || !aws.accessKeyId || !aws.secretAccessKey) return undefined;
  const keys = { accessKeyId: aws.accessKeyId, secretAccessKey: aws.secretAccessKey, sessionToken: aws.sessionToken };
  return { credential: awsKeysText(keys), region: aws.region, enabledBy: "AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY" };
}

/** How the default catalog's Bedrock provider is turned on, for the "no usable credentials" reason. */
export const AWS_ENVIRONMENT_HINT = "AWS_BEARER_TOKEN_BEDROCK, or AWS_REGION with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
