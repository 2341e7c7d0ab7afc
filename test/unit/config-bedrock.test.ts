import { describe, expect, test } from "bun:test";
import { buildCatalog } from "../../src/catalog/build-catalog";
import { loadConfig, parseGatewayFile } from "../../src/config";
import { describeConfig } from "../../src/config-describe";
import { configError } from "../support/config-error";

const base = { DATABASE_URL: ":memory:" };
const KEYS = { AWS_ACCESS_KEY_ID: "AKIAENVIRONMENT00001", AWS_SECRET_ACCESS_KEY: "env/Secret+Key/000000000000000000000000" };
const provider = (yaml: string, env: Record<string, string> = {}) =>
  parseGatewayFile(`catalog: { default: false }\nproviders:\n  - ${yaml}\n`, env).providers![0]!;

describe("bedrock providers in gateway.yaml", () => {
  test("base_url defaults to Bedrock Runtime's endpoint for the region; the keys of the aws block become the provider's credential", () => {
    const p = provider(`{ slug: aws, api: bedrock, aws: { region: eu-west-1, access_key_id: AKIAFILE000000000001, secret_access_key: "file/secret" } }`);
    expect(p.base_url).toBe("https://bedrock-runtime.{region}.amazonaws.com");
    const entry = buildCatalog({ providers: [p], models: [] }).getProvider("aws")!;
    expect([entry.baseUrl, entry.region, JSON.parse(entry.apiKey!)]).toEqual([
      "https://bedrock-runtime.{region}.amazonaws.com",
      "eu-west-1",
      { access_key_id: "AKIAFILE000000000001", secret_access_key: "file/secret" },
    ]);
  });

  test("what the block leaves out comes from the AWS_* variables: the region, then AWS_BEARER_TOKEN_BEDROCK before the access keys", () => {
    expect(provider("{ slug: aws, api: bedrock }", { AWS_REGION: "us-west-2", ...KEYS, AWS_SESSION_TOKEN: "tok" }).aws).toEqual({
      region: "us-west-2",
      access_key_id: KEYS.AWS_ACCESS_KEY_ID,
      secret_access_key: KEYS.AWS_SECRET_ACCESS_KEY,
      session_token: "tok",
    });
    const bearer = provider("{ slug: aws, api: bedrock }", { AWS_BEARER_TOKEN_BEDROCK: "ABSKenv", ...KEYS });
    expect([bearer.api_key, bearer.aws]).toEqual(["ABSKenv", { region: "us-east-1" }]);
    // keys the file names are taken whole: none of the environment's are mixed in
    expect(
      provider(`{ slug: aws, api: bedrock, aws: { region: us-east-1, access_key_id: AKIAFILE000000000001, secret_access_key: s } }`, {
        ...KEYS,
        AWS_SESSION_TOKEN: "tok",
      }).aws,
    ).toEqual({ region: "us-east-1", access_key_id: "AKIAFILE000000000001", secret_access_key: "s" });
    // nothing anywhere: a provider only BYOK keys can serve
    expect(provider("{ slug: aws, api: bedrock, aws: { region: us-east-1 } }").api_key).toBeUndefined();
  });

  test("a bad block is a config error naming the field", () => {
    const yaml = (p: string) => `providers:\n  - ${p}\n`;
    expect(
      configError(() => parseGatewayFile(yaml("{ slug: aws, api: bedrock, aws: { access_key_id: AKIA0000000000000001, secret_access_key: s } }"), {})),
    ).toBe("config error: providers[0].aws.region: expected an AWS region such as us-east-1 (or AWS_REGION) to sign calls for");
    expect(configError(() => parseGatewayFile(yaml("{ slug: aws, api: bedrock, aws: { region: us-east-1, access_key_id: AKIA0000000000000001 } }"), {}))).toBe(
      "config error: providers[0].aws.secret_access_key: expected beside aws.access_key_id",
    );
    expect(configError(() => parseGatewayFile(yaml("{ slug: aws, api: bedrock, aws: { region: US East } }"), {}))).toBe(
      'config error: providers[0].aws.region: expected an AWS region such as us-east-1 (got "US East")',
    );
    expect(configError(() => parseGatewayFile(yaml("{ slug: aws, api: bedrock, api_key: '{not json' }"), {}))).toBe(
      "config error: providers[0].api_key: expected a Bedrock API key (AWS access keys go in the aws block)",
    );
    expect(configError(() => parseGatewayFile(yaml("{ slug: x, api: openai-chat, aws: { region: us-east-1 } }"), {}))).toBe(
      "config error: providers[0].aws: expected no aws block (it belongs to a provider whose api is bedrock)\nconfig error: providers[0].base_url: expected an http(s) URL such as https://api.openai.com/v1",
    );
  });
});

describe("config check and the default catalog", () => {
  const load = async (env: Record<string, string>, yaml?: string) => {
    const path = yaml === undefined ? undefined : `${process.env.TMPDIR ?? "/tmp"}/gw-bedrock-${crypto.randomUUID()}.yaml`;
    if (path) await Bun.write(path, yaml!);
    return loadConfig({ ...base, ...env, ...(path ? { GATEWAY_CONFIG: path } : {}) });
  };

  test("amazon-bedrock is active with AWS_REGION and AWS keys, or with AWS_BEARER_TOKEN_BEDROCK, and says which", async () => {
    const active = (c: ReturnType<typeof loadConfig>) =>
      (describeConfig(c).catalog as any).active_default_providers.filter((p: any) => p.slug === "amazon-bedrock");
    expect(active(await load(KEYS))).toEqual([]);
    expect(active(await load({ ...KEYS, AWS_REGION: "us-east-1" }))).toEqual([
      { slug: "amazon-bedrock", enabled_by: "AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY" },
    ]);
    expect(active(await load({ AWS_BEARER_TOKEN_BEDROCK: "ABSKenv" }))).toEqual([{ slug: "amazon-bedrock", enabled_by: "AWS_BEARER_TOKEN_BEDROCK" }]);
    const catalog = buildCatalog(await load({ ...KEYS, AWS_REGION: "ap-south-1" }));
    const bedrock = catalog.getProvider("amazon-bedrock")!;
    expect([bedrock.region, JSON.parse(bedrock.apiKey!).access_key_id]).toEqual(["ap-south-1", KEYS.AWS_ACCESS_KEY_ID]);
    expect(buildCatalog(await load({})).getProvider("amazon-bedrock")?.envVar).toBe(
      "AWS_BEARER_TOKEN_BEDROCK, or AWS_REGION with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
    );
  });

  test("config check shows the aws block with every secret masked", async () => {
    const config = await load(
      { AWS_SESSION_TOKEN: "FwoGZXIvYXdzEMOCKSESSIONTOKEN000" },
      `providers:\n  - { slug: aws, api: bedrock, aws: { region: us-east-1, access_key_id: AKIAFILE000000000001, secret_access_key: "file/Secret+Key/0000000000000000000000", session_token: "FwoGZXIvYXdzEFILESESSIONTOKEN000" } }\n`,
    );
    const printed = describeConfig(config);
    expect((printed.providers as any[])[0]).toEqual({
      slug: "aws",
      api: "bedrock",
      base_url: "https://bedrock-runtime.{region}.amazonaws.com",
      api_key: undefined,
      aws: { region: "us-east-1", access_key_id: "AKIA…01", secret_access_key: "file…00", session_token: "FwoG…00" },
    });
    expect(JSON.stringify(printed)).not.toContain("Secret+Key");
    expect(JSON.stringify(printed)).not.toContain("SESSIONTOKEN");
  });
});
