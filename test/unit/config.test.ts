import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadConfig, parseGatewayFile } from "../../src/config";
import { describeConfig } from "../../src/config-describe";
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
    expect(
      loadConfig({ ...base, GATEWAY_CONFIG: join(dir, "gateway.yaml"), GATEWAY_RESPONSES_ITEM_RETENTION_MINUTES: "15" }).responses.itemRetentionMinutes,
    ).toBe(15);
    expect(configError(() => parseGatewayFile("responses:\n  item_retention_minutes: -1\n", {}))).toContain(
      "responses.item_retention_minutes: expected an integer >= 0",
    );
    expect(configError(() => loadConfig({ ...base, GATEWAY_RESPONSES_ITEM_RETENTION_MINUTES: "soon" }))).toBe(
      'config error: GATEWAY_RESPONSES_ITEM_RETENTION_MINUTES: expected an integer from 0 to 525600 (got "soon")',
    );
  });

  test("GATEWAY_SHUTDOWN_GRACE_SECONDS: 30 by default, 0 to 3600", () => {
    expect(loadConfig(base).shutdownGraceSeconds).toBe(30);
    expect(loadConfig({ ...base, GATEWAY_SHUTDOWN_GRACE_SECONDS: "0" }).shutdownGraceSeconds).toBe(0);
    expect(loadConfig({ ...base, GATEWAY_SHUTDOWN_GRACE_SECONDS: "120" }).shutdownGraceSeconds).toBe(120);
    expect(configError(() => loadConfig({ ...base, GATEWAY_SHUTDOWN_GRACE_SECONDS: "3601" }))).toBe(
      'config error: GATEWAY_SHUTDOWN_GRACE_SECONDS: expected an integer from 0 to 3600 (got "3601")',
    );
    expect(configError(() => loadConfig({ ...base, GATEWAY_SHUTDOWN_GRACE_SECONDS: "1.5" }))).toBe(
      'config error: GATEWAY_SHUTDOWN_GRACE_SECONDS: expected an integer from 0 to 3600 (got "1.5")',
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
      'config error: providers[0].api: expected one of openai-chat, openai-responses, anthropic-messages, azure-openai, bedrock, gemini, vertex, openai-videos, fal-queue, replicate, gemini-veo, openai-images, openai-audio, cohere-rerank (got "grpc")',
    );
    expect(configError(() => parseGatewayFile("routing:\n  circuit_failures: 0\n", {}))).toContain("routing.circuit_failures: expected an integer >= 1");
    expect(configError(() => parseGatewayFile("servr: {}\n", {}))).toBe(
      "config error: servr: expected only the keys providers, models, video_models, image_models, speech_models, transcription_models, rerank_models, videos, storage, catalog, routing, server, security, metrics, jobs, responses, sessions, io_logging, response_cache, auth, audit (got {})",
    );
    expect(configError(() => parseGatewayFile("models:\n  - id: nope\n    endpoints: []\n", {}))).toContain("models[0].id");
    expect(configError(() => parseGatewayFile("a: [", {}))).toContain("valid YAML");
  });

  test("gateway.yaml: ${ENV} interpolation, and a missing variable is named", () => {
    const yaml = "providers:\n  - slug: acme\n    api: openai-chat\n    base_url: ${ACME_URL}\n    api_key: ${ACME_KEY}\n";
    const file = parseGatewayFile(yaml, { ACME_URL: "http://127.0.0.1:9/v1", ACME_KEY: "k-123" });
    expect(file.providers?.[0]).toEqual({ slug: "acme", api: "openai-chat", base_url: "http://127.0.0.1:9/v1", api_key: "k-123" });
    expect(configError(() => parseGatewayFile(yaml, { ACME_URL: "http://x/v1" }))).toContain("${ACME_KEY}");
  });

  test("storage.s3: ${ENV} interpolation, a prefix ending in /, secrets masked by config check, keys required", async () => {
    const dir = tempDir();
    await Bun.write(
      join(dir, "gateway.yaml"),
      "storage:\n  s3: { bucket: clips, endpoint: http://127.0.0.1:9000, access_key_id: ${S3_ID}, secret_access_key: ${S3_SECRET}, prefix: /videos }\n",
    );
    const c = loadConfig({ ...base, GATEWAY_CONFIG: join(dir, "gateway.yaml"), S3_ID: "AKIAEXAMPLE1234", S3_SECRET: "wJalrXUtnFEMI-secret-value" });
    expect(c.storage.s3).toEqual({
      bucket: "clips",
      endpoint: "http://127.0.0.1:9000",
      region: undefined,
      accessKeyId: "AKIAEXAMPLE1234",
      secretAccessKey: "wJalrXUtnFEMI-secret-value",
      prefix: "videos/",
    });
    const described = JSON.stringify(describeConfig(c));
    expect(described).not.toContain("wJalrXUtnFEMI-secret-value");
    expect(described).not.toContain("AKIAEXAMPLE1234");
    expect(describeConfig(c).storage).toEqual({
      s3: { bucket: "clips", endpoint: "http://127.0.0.1:9000", region: null, access_key_id: "AKIA…34", secret_access_key: "wJal…ue", prefix: "videos/" },
    });
    expect(loadConfig(base).storage).toEqual({});
    expect(configError(() => parseGatewayFile("storage:\n  s3: { bucket: b, access_key_id: a }\n", {}))).toContain("storage.s3.secret_access_key");
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

describe("config errors, all at once", () => {
  test("YAML syntax errors carry line and column", () => {
    expect(configError(() => parseGatewayFile("providers:\n  - slug: a\n   api: x\n", {}))).toBe(
      "config error: GATEWAY_CONFIG line 3, column 1: invalid YAML: Sequence item without - indicator",
    );
    expect(configError(() => parseGatewayFile("routing:\n  circuit_failures: 1\n  circuit_failures: 2\n", {}))).toBe(
      "config error: GATEWAY_CONFIG line 3, column 3: invalid YAML: Map keys must be unique",
    );
  });

  test("every schema error of a file is reported, one line each", () => {
    const yaml = [
      "providers:",
      "  - { slug: a, api: grpc, base_url: ftp://x }",
      "models:",
      "  - id: nope",
      "    endpoints: []",
      "routing: { circuit_failures: 0 }",
      "",
    ].join("\n");
    expect(configError(() => parseGatewayFile(yaml, {})).split("\n")).toEqual([
      'config error: providers[0].api: expected one of openai-chat, openai-responses, anthropic-messages, azure-openai, bedrock, gemini, vertex, openai-videos, fal-queue, replicate, gemini-veo, openai-images, openai-audio, cohere-rerank (got "grpc")',
      'config error: providers[0].base_url: expected a string matching ^https?:// (got "ftp://x")',
      'config error: models[0].id: expected author/slug (got "nope")',
      "config error: models[0].endpoints: expected a list of at least 1 item (got [])",
      "config error: routing.circuit_failures: expected an integer >= 1 (got 0)",
    ]);
  });

  test("every missing ${VAR} and every bad reference is named", () => {
    expect(configError(() => parseGatewayFile("a: ${ONE}\nb: ${TWO}\n", {})).split("\n")).toEqual([
      "config error: ${ONE}: expected the environment variable to be set (referenced in GATEWAY_CONFIG)",
      "config error: ${TWO}: expected the environment variable to be set (referenced in GATEWAY_CONFIG)",
    ]);
    const yaml = "models:\n  - { id: a/b, endpoints: [{ provider: x, model: m }] }\n  - { id: a/b, endpoints: [{ provider: y, model: m }] }\n";
    expect(configError(() => parseGatewayFile(yaml, { GATEWAY_DEFAULT_CATALOG: "false" })).split("\n")).toEqual([
      'config error: models[0].endpoints[0].provider: expected the slug of a provider declared under providers (got "x")',
      'config error: models[1].id: expected a model id not used by another model (got "a/b")',
      'config error: models[1].endpoints[0].provider: expected the slug of a provider declared under providers (got "y")',
    ]);
  });

  test("at start-up: exit code 2 and every error on stderr", async () => {
    const dir = tempDir();
    await Bun.write(join(dir, "gateway.yaml"), "server:\n  max_body_mb: -3\nrouting:\n  circuit_cooldown_ms: soon\n");
    const proc = Bun.spawn(["bun", "src/main.ts", "serve"], {
      env: { ...process.env, GATEWAY_CONFIG: join(dir, "gateway.yaml"), DATABASE_URL: `file:${dir}/db`, PORT: "0" },
      stderr: "pipe",
      stdout: "pipe",
    });
    expect(await proc.exited).toBe(2);
    expect((await new Response(proc.stderr).text()).trim().split("\n")).toEqual([
      'config error: routing.circuit_cooldown_ms: expected an integer >= 0 (got "soon")',
      "config error: server.max_body_mb: expected a number > 0 (got -3)",
    ]);
  });
});

describe("data directory", () => {
  test("resolved once, beside the SQLite file; ./data for other databases", () => {
    expect(loadConfig({ DATABASE_URL: "file:rel/dir/g.db" }).dataDir).toBe(join(process.cwd(), "rel/dir"));
    expect(loadConfig({}).dataDir).toBe(join(process.cwd(), "data"));
    expect(loadConfig({ DATABASE_URL: ":memory:" }).dataDir).toBe(join(process.cwd(), "data"));
  });

  test("a directory this user may not write is a config error naming DATABASE_URL", async () => {
    const dir = tempDir();
    chmodSync(dir, 0o555);
    // root may write anywhere: run the check as nobody, from a bundle nobody can read (the
    // clone itself may sit in a directory only its owner may enter, as one mktemp -d makes)
    const root = process.getuid?.() === 0;
    if (root && !Bun.which("setpriv")) return void console.warn("skipped: running as root without setpriv, no other user can run the check");
    const asUser = root ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
    const entry = root ? await readableBundle() : "src/main.ts";
    const run = (url: string) =>
      Bun.spawnSync([...asUser, process.execPath, entry, "migrate"], {
        env: { ...process.env, DATABASE_URL: url },
        cwd: root ? dirname(entry) : undefined,
        stderr: "pipe",
      });
    const inside = run(`file:${dir}/g.db`);
    expect(inside.exitCode).toBe(2);
    expect(inside.stderr.toString().trim()).toMatch(
      new RegExp(`^config error: DATABASE_URL: expected a path whose directory ${dir} this user \\(uid \\d+\\) may write: permission denied$`),
    );
    const below = run(`file:${dir}/sub/g.db`);
    expect(below.exitCode).toBe(2);
    expect(below.stderr.toString().trim()).toMatch(
      new RegExp(`^config error: DATABASE_URL: expected a path whose directory ${dir}/sub can be created \\(permission denied for uid \\d+\\)$`),
    );
  });
});

/** The CLI bundled into a directory every user may read. */
async function readableBundle(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "gw-cli-bundle-"));
  chmodSync(out, 0o755);
  const built = await Bun.build({ entrypoints: [join(import.meta.dir, "../../src/main.ts")], target: "bun", outdir: out });
  if (!built.success) throw new Error(built.logs.join("\n"));
  for (const file of readdirSync(out)) chmodSync(join(out, file), 0o644);
  return join(out, "main.js");
}

describe("config: sign-in", () => {
  test("public URL from GATEWAY_PUBLIC_URL or server.public_url, as an origin without a trailing slash; sessions 12 h idle, 7 days at most by default", async () => {
    expect(loadConfig({}).server.publicUrl).toBeUndefined();
    expect(loadConfig({}).sessions).toEqual({ idleMinutes: 720, maxHours: 168 });
    expect(loadConfig({ GATEWAY_PUBLIC_URL: "https://gateway.example.com/" }).server.publicUrl).toBe("https://gateway.example.com");
    const dir = tempDir();
    await Bun.write(join(dir, "gateway.yaml"), "server: { public_url: 'http://10.0.0.5:8080' }\nsessions: { idle_minutes: 30, max_hours: 24 }\n");
    const fromFile = loadConfig({ GATEWAY_CONFIG: join(dir, "gateway.yaml") });
    expect([fromFile.server.publicUrl, fromFile.sessions]).toEqual(["http://10.0.0.5:8080", { idleMinutes: 30, maxHours: 24 }]);
    expect(configError(() => loadConfig({ GATEWAY_PUBLIC_URL: "ftp://gateway.example.com" }))).toBe(
      'config error: GATEWAY_PUBLIC_URL: expected an http(s) URL such as https://gateway.example.com (got "ftp://gateway.example.com")',
    );
    expect(configError(() => parseGatewayFile("sessions: { idle_minutes: 0 }\n", {}))).toContain("sessions.idle_minutes: expected an integer >= 1");
  });
});
