/**
 * Every environment variable the gateway reads, for docs/reference/configuration.md: those
 * `gateway --help` describes, the AWS and Google variables the credentials of Bedrock and Vertex AI
 * fall back to, and the key variable of each default-catalog provider (from the catalog itself).
 */

import { DEFAULT_CATALOG, providerVariables } from "../../src/catalog/default-catalog";
import { USAGE } from "../../src/cli/usage";
import { DEFAULT_MEDIA_PROVIDERS } from "../../src/media/default-media-catalog";

export type EnvVariable = { name: string; description: string };

/** The Environment section of `gateway --help`: each variable and what it does. */
export function usageVariables(usage: string = USAGE): EnvVariable[] {
  const section = usage.split("\nEnvironment:\n")[1]!.split("\n\n")[0]!;
  const out: EnvVariable[] = [];
  for (const line of section.split("\n")) {
    const m = /^ {2}([A-Z][A-Z0-9_]+|Provider keys)\s+(.*)$/.exec(line);
    if (m) out.push({ name: m[1]!, description: m[2]! });
    else out.at(-1)!.description += ` ${line.trim()}`;
  }
  return out;
}

/** Read where a gateway.yaml key or the default catalog leaves a credential or a place unset (src/config-env.ts, src/config-credentials.ts). */
const CREDENTIAL_VARIABLES: EnvVariable[] = [
  {
    name: "AWS_REGION",
    description: "the region of Bedrock providers that name none (providers[].aws.region), and of the default catalog's bedrock provider",
  },
  { name: "AWS_DEFAULT_REGION", description: "read when AWS_REGION is unset, as AWS_REGION (providers[].aws.region)" },
  {
    name: "AWS_ACCESS_KEY_ID",
    description:
      "access key id signing Bedrock calls of providers that name no credential (providers[].aws.access_key_id); with AWS_SECRET_ACCESS_KEY and AWS_REGION it enables the default catalog's bedrock provider",
  },
  { name: "AWS_SECRET_ACCESS_KEY", description: "secret access key paired with AWS_ACCESS_KEY_ID (providers[].aws.secret_access_key)" },
  {
    name: "AWS_SESSION_TOKEN",
    description: "session token of temporary AWS credentials, sent with AWS_ACCESS_KEY_ID's signatures (providers[].aws.session_token)",
  },
  {
    name: "AWS_BEARER_TOKEN_BEDROCK",
    description:
      "a Bedrock API key (sent as Authorization: Bearer, nothing signed) for Bedrock providers that name no credential; it wins over the access keys, and alone serves us-east-1",
  },
  {
    name: "GOOGLE_APPLICATION_CREDENTIALS",
    description:
      "path of a service-account key file: the key of a vertex provider that names none (providers[].vertex.credentials_file), and with GOOGLE_VERTEX_PROJECT and GOOGLE_VERTEX_LOCATION of the default catalog's Vertex AI providers",
  },
  {
    name: "GOOGLE_VERTEX_PROJECT",
    description: "the Google Cloud project of the default catalog's Vertex AI providers (they serve only once all three GOOGLE_ variables are set)",
  },
  { name: "GOOGLE_VERTEX_LOCATION", description: "the Vertex AI location of the default catalog's Vertex AI providers, such as us-east5 or global" },
  {
    name: "npm_package_version",
    description: "the version the OpenAPI document at /api/v1/openapi.json states (set by `bun run`; default 0.1.0)",
  },
];

/** Each variable a default-catalog provider serves with, and the providers it enables (the AWS and Google ones are above). */
export function providerKeyVariables(): EnvVariable[] {
  const uses = new Map<string, { role: "key" | "base URL"; slugs: Set<string> }>();
  const add = (name: string, role: "key" | "base URL", slug: string) => {
    const use = uses.get(name) ?? { role, slugs: new Set<string>() };
    uses.set(name, use);
    use.slugs.add(slug);
  };
  for (const p of DEFAULT_CATALOG.providers)
    if (p.api !== "bedrock" && !p.vertexEnv) for (const v of providerVariables(p)) add(v, v === p.env ? "key" : "base URL", p.slug);
  for (const p of DEFAULT_MEDIA_PROVIDERS) add(p.env, "key", p.slug);
  return [...uses]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, { role, slugs }]) => {
      const of = `the default-catalog provider${slugs.size > 1 ? "s" : ""} ${[...slugs].join(", ")}`;
      return {
        name,
        description: role === "key" ? `the gateway's own API key for ${of}` : `the part of the base URL of ${of} that names the account's resource`,
      };
    });
}

/** Every variable the gateway reads: --help's, then the credential ones, then the provider keys. */
export function gatewayVariables(): { usage: EnvVariable[]; credentials: EnvVariable[]; providerKeys: EnvVariable[] } {
  return { usage: usageVariables(), credentials: CREDENTIAL_VARIABLES, providerKeys: providerKeyVariables() };
}
