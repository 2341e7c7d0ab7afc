import { type AwsEnvironment, DEFAULT_API_KEY_REGION, environmentCredential, parseBedrockCredential } from "./catalog/bedrock-credential";
import { type ConfigIssue, configIssue } from "./config-error";
import type { ProviderConfig, ProviderFileConfig } from "./config-schema";
import { DEFAULT_VERTEX_LOCATION, vertexBaseUrl } from "./google-cloud";

/** Bedrock Runtime's endpoint (https://docs.aws.amazon.com/general/latest/gr/bedrock.html); `{region}` is filled per call. */
export const BEDROCK_DEFAULT_BASE_URL = "https://bedrock-runtime.{region}.amazonaws.com";

type Resolved = { provider?: ProviderConfig; issues: ConfigIssue[] };

/**
 * A bedrock provider with what defaults filled in: the region (aws.region, else AWS_REGION), the
 * credential (api_key, or the aws block's keys, else the AWS_* variables) and the base URL.
 * Keys are taken whole from one place: an access key from the file and a secret from the
 * environment would be a pair nobody wrote.
 */
function resolveBedrock(p: ProviderFileConfig, i: number, aws: AwsEnvironment): Resolved {
  const at = (field: string) => `providers[${i}].${field}`;
  const own = p.aws ?? {};
  const ownKeys = own.access_key_id !== undefined || own.secret_access_key !== undefined;
  const region = own.region ?? aws.region;
  const issues: ConfigIssue[] = [];
  if (p.api_key !== undefined && "error" in parseBedrockCredential(p.api_key))
    issues.push(configIssue(at("api_key"), "a Bedrock API key (AWS access keys go in the aws block)"));
  if (ownKeys && own.access_key_id === undefined) issues.push(configIssue(at("aws.access_key_id"), "beside aws.secret_access_key"));
  if (ownKeys && own.secret_access_key === undefined) issues.push(configIssue(at("aws.secret_access_key"), "beside aws.access_key_id"));
  if (p.api_key && ownKeys) issues.push(configIssue(at("api_key"), "either api_key (a Bedrock API key) or aws access keys, not both"));
  const envKeys = !p.api_key && !ownKeys && !aws.bearerToken && aws.accessKeyId !== undefined && aws.secretAccessKey !== undefined;
  if ((ownKeys || envKeys) && region === undefined)
    issues.push(configIssue(at("aws.region"), "an AWS region such as us-east-1 (or AWS_REGION) to sign calls for"));
  if (issues.length > 0) return { issues };

  const base = { ...p, base_url: p.base_url ?? BEDROCK_DEFAULT_BASE_URL, aws: { ...own, region: region ?? DEFAULT_API_KEY_REGION } };
  const fromEnvironment = p.api_key || ownKeys ? undefined : environmentCredential({ ...aws, region });
  if (!fromEnvironment) return { provider: base, issues };
  // the environment's credential, spelled as the file would spell it, so `config check` shows where it went
  if (aws.bearerToken) return { provider: { ...base, api_key: aws.bearerToken }, issues };
  const keys = { access_key_id: aws.accessKeyId, secret_access_key: aws.secretAccessKey, ...(aws.sessionToken ? { session_token: aws.sessionToken } : {}) };
  return { provider: { ...base, aws: { ...base.aws, ...keys } }, issues };
}

/**
 * Every provider with its base URL known (bedrock's and vertex's have defaults: Vertex AI's
 * endpoint follows the location); a missing one, or a credentials block on the wrong API, is a
 * config error naming the field.
 */
export function resolveProviders(providers: readonly ProviderFileConfig[], aws: AwsEnvironment): { providers: ProviderConfig[]; issues: ConfigIssue[] } {
  const out: ProviderConfig[] = [];
  const issues: ConfigIssue[] = [];
  providers.forEach((p, i) => {
    if (p.api === "bedrock") {
      const resolved = resolveBedrock(p, i, aws);
      issues.push(...resolved.issues);
      if (resolved.provider) out.push(resolved.provider);
      return;
    }
    if (p.aws !== undefined) issues.push(configIssue(`providers[${i}].aws`, "no aws block (it belongs to a provider whose api is bedrock)"));
    if (p.api === "vertex") out.push({ ...p, base_url: p.base_url ?? vertexBaseUrl(p.vertex?.location ?? DEFAULT_VERTEX_LOCATION) });
    else if (p.base_url === undefined) issues.push(configIssue(`providers[${i}].base_url`, "an http(s) URL such as https://api.openai.com/v1"));
    else out.push({ ...p, base_url: p.base_url });
  });
  return { providers: out, issues };
}
