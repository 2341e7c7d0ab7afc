import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig, parseGatewayFile } from "../../src/config";
import { configError } from "../support/config-error";
import { tempDir } from "../support/gateway";

const base = { DATABASE_URL: ":memory:" };


describe("config", () => {
  test("defaults", () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databasePath).toBe(join(process.cwd(), "data/gateway.db"));
    expect(c.server.maxBodyMb).toBe(32);
    expect(c.routing).toEqual({ firstByteTimeoutMs: 60000, circuitFailures: 5, circuitCooldownMs: 30000 });
    expect(c.catalog.default).toBe(true);
    expect(c.security.allowPrivateUrls).toBe(false);
    expect(c.responses.itemRetentionMinutes).toBe(60);
    expect(c.logLevel).toBe("info");
  });

  test("responses.item_retention_minutes: from gateway.yaml, overridden by the environment, 0 allowed", async () => {
    const dir = tempDir();
    await Bun.write(join(dir, "gateway.yaml"), "responses:\n  item_retention_minutes: 0\n");
    expect(loadConfig({ ...base, GATEWAY_CONFIG: join(dir, "gateway.yaml") }).responses.itemRetentionMinutes).toBe(0);
    expect(loadConfig({ ...base, GATEWAY_CONFIG: join(dir, "gateway.yaml"), GATEWAY_RESPONSES_ITEM_RETENTION_MINUTES: "15" }).responses.itemRetentionMinutes).toBe(15);
    expect(configError(() => parseGatewayFile("responses:\n  item_retention_minutes: -1\n", {}))).toContain("responses.item_retention_minutes: expected an integer >= 0");
    expect(configError(() => loadConfig({ ...base, GATEWAY_RESPONSES_ITEM_RETENTION_MINUTES: "soon" }))).toBe(
      'config error: GATEWAY_RESPONSES_ITEM_RETENTION_MINUTES: expected an integer from 0 to 525600 (got "soon")',
    );
  });

  test("bad environment values name the variable", () => {
    expect(configError(() => loadConfig({ ...base, PORT: "eighty" }))).toBe('config error: PORT: expected an integer from 0 to 65535 (got "eighty")');
    expect(configError(() => loadConfig({ ...base, PORT: "70000" }))).toContain("PORT");
    expect(configError(() => loadConfig({ ...base, LOG_LEVEL: "loud" }))).toContain("LOG_LEVEL: expected one of debug, info, warn, error");
    expect(configError(() => loadConfig({ ...base, GATEWAY_ADMIN_KEY: "short" }))).toContain("GATEWAY_ADMIN_KEY");
    expect(configError(() => loadConfig({ ...base, GATEWAY_SECRET_KEY: "nope" }))).toContain("GATEWAY_SECRET_KEY");
    expect(configError(() => loadConfig({ ...base, DATABASE_URL: "postgres://x" }))).toContain("DATABASE_URL");
    expect(configError(() => loadConfig({ ...base, GATEWAY_CONFIG: "/nonexistent/gateway.yaml" }))).toContain("GATEWAY_CONFIG");
  });

  test("gateway.yaml: schema errors name the field", () => {
    expect(configError(() => parseGatewayFile("providers:\n  - slug: a\n    api: grpc\n    base_url: http://x/v1\n", {}))).toBe(
      'config error: providers[0].api: expected one of openai-chat, openai-responses, anthropic-messages (got "grpc")',
    );
    expect(configError(() => parseGatewayFile("routing:\n  circuit_failures: 0\n", {}))).toContain("routing.circuit_failures: expected an integer >= 1");
    expect(configError(() => parseGatewayFile("servr: {}\n", {}))).toBe("config error: servr: expected only the keys providers, models, catalog, routing, server, security, metrics, jobs, responses (got {})");
    expect(configError(() => parseGatewayFile("models:\n  - id: nope\n    endpoints: []\n", {}))).toContain("models[0].id");
    expect(configError(() => parseGatewayFile("a: [", {}))).toContain("valid YAML");
  });

  test("gateway.yaml: ${ENV} interpolation, and a missing variable is named", () => {
    const yaml = "providers:\n  - slug: acme\n    api: openai-chat\n    base_url: ${ACME_URL}\n    api_key: ${ACME_KEY}\n";
    const file = parseGatewayFile(yaml, { ACME_URL: "http://127.0.0.1:9/v1", ACME_KEY: "k-123" });
    expect(file.providers?.[0]).toEqual({ slug: "acme", api: "openai-chat", base_url: "http://127.0.0.1:9/v1", api_key: "k-123" });
    expect(configError(() => parseGatewayFile(yaml, { ACME_URL: "http://x/v1" }))).toContain("${ACME_KEY}");
  });

  test("the process exits 2 with one line naming the field", async () => {
    const dir = tempDir();
    await Bun.write(join(dir, "gateway.yaml"), "server:\n  max_body_mb: -3\n");
    const proc = Bun.spawn(["bun", "src/main.ts", "config", "check"], {
      env: { ...process.env, GATEWAY_CONFIG: join(dir, "gateway.yaml"), DATABASE_URL: `file:${dir}/db` },
      stderr: "pipe",
      stdout: "pipe",
    });
    expect(await proc.exited).toBe(2);
    const err = await new Response(proc.stderr).text();
    expect(err.trim().split("\n")).toHaveLength(1);
    expect(err).toContain("server.max_body_mb");
  });
});
