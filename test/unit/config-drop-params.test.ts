import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildCatalog } from "../../src/catalog/build-catalog";
import { loadConfig, parseGatewayFile } from "../../src/config";
import { describeConfig } from "../../src/config-describe";
import { configError } from "../support/config-error";
import { tempDir } from "../support/gateway";

const provider = (extra: string) => `providers:\n  - { slug: vllm, api: openai-chat, base_url: "http://127.0.0.1:8000/v1"${extra} }\n`;

describe("providers[].drop_params", () => {
  test("reaches the provider's catalog entry and `config check` as written", async () => {
    const dir = tempDir();
    await Bun.write(
      join(dir, "gateway.yaml"),
      `${provider(", drop_params: [stream_options, service_tier]")}models:\n  - { id: local/qwen, endpoints: [{ provider: vllm, model: qwen }] }\n`,
    );
    const config = loadConfig({ DATABASE_URL: ":memory:", GATEWAY_CONFIG: join(dir, "gateway.yaml"), GATEWAY_DEFAULT_CATALOG: "false" });
    expect(buildCatalog(config).getProvider("vllm")!.dropParams).toEqual(["stream_options", "service_tier"]);
    expect((describeConfig(config).providers as Array<Record<string, unknown>>)[0]!.drop_params).toEqual(["stream_options", "service_tier"]);
  });

  test("a value that is not a list of field names is a config error naming it", () => {
    expect(configError(() => parseGatewayFile(provider(", drop_params: stream_options"), {}))).toBe(
      'config error: providers[0].drop_params: expected a list of top-level request field names, such as [stream_options, service_tier] (got "stream_options")',
    );
    expect(configError(() => parseGatewayFile(provider(', drop_params: [stream_options, "a b"]'), {}))).toBe(
      'config error: providers[0].drop_params[1]: expected a top-level request field name such as stream_options (got "a b")',
    );
  });

  test("a video provider takes no drop_params: it would do nothing", () => {
    const yaml = 'providers:\n  - { slug: sora, api: openai-videos, base_url: "http://127.0.0.1:9/v1", drop_params: [seed] }\n';
    expect(configError(() => parseGatewayFile(yaml, {}))).toBe(
      'config error: providers[0].drop_params: expected no drop_params on a video provider (it applies to openai-chat, openai-responses and anthropic-messages) (got ["seed"])',
    );
  });
});
