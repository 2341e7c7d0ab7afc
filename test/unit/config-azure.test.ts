import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildCatalog } from "../../src/catalog/build-catalog";
import { loadConfig, parseGatewayFile } from "../../src/config";
import { activeDefaultProviders, describeConfig } from "../../src/config-describe";
import { configError } from "../support/config-error";
import { tempDir } from "../support/gateway";

const azure = (extra: string) =>
  `providers:\n  - { slug: az, api: azure-openai, base_url: "https://myres.openai.azure.com", api_key: "0123456789abcdef0123456789abcdef"${extra} }\n`;

function load(yaml: string, env: Record<string, string> = {}) {
  const dir = tempDir();
  const path = join(dir, "gateway.yaml");
  writeFileSync(path, yaml);
  return loadConfig({ DATABASE_URL: ":memory:", GATEWAY_CONFIG: path, ...env });
}

describe("providers[].azure", () => {
  test("api_version reaches the provider's catalog entry; config check shows it with the key masked", () => {
    const config = load(azure(', azure: { api_version: "2024-10-21" }'), { GATEWAY_DEFAULT_CATALOG: "false" });
    expect(buildCatalog(config).getProvider("az")!.azure).toEqual({ apiVersion: "2024-10-21" });
    expect((describeConfig(config).providers as unknown[])[0]).toEqual({
      slug: "az",
      api: "azure-openai",
      base_url: "https://myres.openai.azure.com",
      api_key: "0123…ef",
      azure: { api_version: "2024-10-21" },
    });
  });

  test("without a block the documented default is sent, and config check says which", () => {
    const config = load(azure(""), { GATEWAY_DEFAULT_CATALOG: "false" });
    expect(buildCatalog(config).getProvider("az")!.azure).toEqual({ apiVersion: "2025-04-01-preview" });
    expect((describeConfig(config).providers as Array<Record<string, unknown>>)[0]!.azure).toEqual({ api_version: "2025-04-01-preview" });
  });

  test("a malformed api_version or an unknown key is a config error naming the field", () => {
    expect(configError(() => parseGatewayFile(azure(', azure: { api_version: "latest" }'), {}))).toBe(
      'config error: providers[0].azure.api_version: expected an Azure OpenAI api-version such as 2024-10-21 or 2025-04-01-preview (got "latest")',
    );
    expect(configError(() => parseGatewayFile(azure(", azure: { deployment: gpt4 }"), {}))).toBe(
      'config error: providers[0].azure.deployment: expected only the keys api_version (got "gpt4")',
    );
  });

  test("an azure block on another API is a config error naming it", () => {
    const yaml = 'providers:\n  - { slug: oc, api: openai-chat, base_url: "http://127.0.0.1:9/v1", azure: { api_version: "2024-10-21" } }\n';
    expect(configError(() => parseGatewayFile(yaml, {}))).toBe(
      'config error: providers[0].azure: expected no azure block on a provider whose api is not azure-openai (got "openai-chat")',
    );
  });
});

describe("the default catalog's azure provider", () => {
  const env = (vars: Record<string, string>) => ({ catalog: { default: true }, providers: [], aws: {}, env: vars });
  test("is active only with both AZURE_RESOURCE_NAME and AZURE_API_KEY, and config check names both", () => {
    expect(activeDefaultProviders(env({ AZURE_API_KEY: "k" }))).toEqual([]);
    expect(activeDefaultProviders(env({ AZURE_RESOURCE_NAME: "myres" }))).toEqual([]);
    expect(activeDefaultProviders(env({ AZURE_RESOURCE_NAME: "myres", AZURE_API_KEY: "k" }))).toEqual([
      { slug: "azure", enabled_by: "AZURE_RESOURCE_NAME and AZURE_API_KEY" },
    ]);
    // a single-variable provider still names its one
    expect(activeDefaultProviders(env({ GROQ_API_KEY: "k" }))).toEqual([{ slug: "groq", enabled_by: "GROQ_API_KEY" }]);
  });
});
