import type { AwsEnvironment } from "./catalog/bedrock-credential";
import { ConfigError } from "./config-error";

/** Reading environment variables: each value checked, a bad one a ConfigError naming the variable. */

export type Env = Record<string, string | undefined>;

export function intFromEnv(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < min || n > max) throw new ConfigError(name, `an integer from ${min} to ${max}`, raw);
  return n;
}

export function boolFromEnv(env: Env, name: string): boolean | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  if (["1", "true", "yes"].includes(raw.toLowerCase())) return true;
  if (["0", "false", "no"].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, "true or false", raw);
}

/**
 * The variables AWS's SDKs read credentials and the region from
 * (https://docs.aws.amazon.com/sdkref/latest/guide/environment-variables.html), and the one
 * Bedrock API keys are read from (AWS_BEARER_TOKEN_BEDROCK).
 */
export function awsFromEnv(env: Env): AwsEnvironment {
  const value = (name: string) => env[name] || undefined;
  const aws: AwsEnvironment = {};
  const region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION");
  if (region) aws.region = region;
  const fields = {
    accessKeyId: "AWS_ACCESS_KEY_ID",
    secretAccessKey: "AWS_SECRET_ACCESS_KEY",
    sessionToken: "AWS_SESSION_TOKEN",
    bearerToken: "AWS_BEARER_TOKEN_BEDROCK",
  } as const;
  for (const [field, name] of Object.entries(fields) as Array<[keyof typeof fields, string]>) {
    const v = value(name);
    if (v) aws[field] = v;
  }
  return aws;
}
