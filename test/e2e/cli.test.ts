import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/logger";
import { startGateway } from "../../src/server";
import { ADMIN_KEY, tempDir } from "../support/gateway";

function run(args: string[], env: Record<string, string>) {
  const proc = Bun.spawnSync(["bun", "src/main.ts", ...args], { env: { ...process.env, LOG_LEVEL: "error", ...env } });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

describe("CLI", () => {
  test("config check reads ./gateway.yaml from the working directory, or the file --config names", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "gateway.yaml"),
      'providers:\n  - { slug: local, api: openai-chat, base_url: "http://127.0.0.1:11434/v1" }\nmodels:\n  - { id: local/llama, endpoints: [{ provider: local, model: llama3 }] }\n',
    );
    const env = { ...process.env, LOG_LEVEL: "error", GATEWAY_CONFIG: "", DATABASE_URL: `file:${join(dir, "g.db")}` };
    const main = join(import.meta.dir, "../../src/main.ts");
    const local = Bun.spawnSync(["bun", main, "config", "check"], { cwd: dir, env });
    expect(local.exitCode).toBe(0);
    expect(local.stdout.toString()).toContain("local/llama");
    const other = tempDir();
    const named = Bun.spawnSync(["bun", main, "--config", join(dir, "gateway.yaml"), "config", "check"], { cwd: other, env });
    expect(named.exitCode).toBe(0);
    expect(named.stdout.toString()).toContain("local/llama");
    const none = Bun.spawnSync(["bun", main, "config", "check"], { cwd: other, env });
    expect(none.exitCode).toBe(0);
    expect(none.stdout.toString()).not.toContain("local/llama");
  });

  test("--help, version and unknown commands", async () => {
    const help = run(["--help"], {});
    expect(help.code).toBe(0);
    for (const word of ["serve", "migrate", "keys create", "users add", "config check", "version"]) expect(help.stdout).toContain(word);
    expect(run(["version"], {}).stdout).toMatch(/^gateway \d+\.\d+\.\d+/);
    // complete without the README: every command the CLI dispatches and every variable config.ts reads
    const main = await Bun.file(join(import.meta.dir, "../../src/cli/run.ts")).text();
    const commands = [...main.matchAll(/case "([a-z-]+)":/g)].map((m) => m[1]!);
    expect(commands).toContain("backup");
    for (const command of commands) expect(help.stdout).toMatch(new RegExp(`^  .*${command}`, "m"));
    const config = await Bun.file(join(import.meta.dir, "../../src/config.ts")).text();
    const variables = new Set([...config.matchAll(/env\.([A-Z_]+)|FromEnv\(env, "([A-Z_]+)"/g)].map((m) => (m[1] ?? m[2])!));
    expect(variables.size).toBeGreaterThanOrEqual(18);
    for (const name of variables) expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    for (const words of ["GATEWAY_CONFIG", "SIGHUP", "SIGTERM", "OPENAI_API_KEY", "Exit codes"]) expect(help.stdout).toContain(words);
    const bad = run(["frobnicate"], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown command 'frobnicate'");
  });

  test("migrate, keys create, users add against a database a running server uses", async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_ADMIN_KEY: ADMIN_KEY };
    expect(run(["migrate"], env).stdout).toMatch(/applied \d+ migration/);
    expect(run(["migrate"], env).stdout).toContain("up to date");
    const gw = await startGateway(loadConfig({ ...env, PORT: "0" }), { hostname: "127.0.0.1", logger: silentLogger });
    try {
      const created = run(["keys", "create", "--name", "cli key", "--limit", "2.5"], env);
      expect(created.code).toBe(0);
      const raw = created.stdout.trim();
      expect(raw).toMatch(/^sk-gw-v1-[0-9a-f]{64}$/);
      const me = (await (await fetch(`${gw.url}/api/v1/key`, { headers: { authorization: `Bearer ${raw}` } })).json()) as any;
      expect(me.data).toMatchObject({ limit: 2.5, is_management_key: false });

      const mgmt = run(["keys", "create", "--management"], env).stdout.trim();
      expect((await fetch(`${gw.url}/api/v1/keys`, { headers: { authorization: `Bearer ${mgmt}` } })).status).toBe(200);

      const user = run(["users", "add", "--id", "alice", "--email", "a@example.com", "--role", "admin"], env);
      expect(JSON.parse(user.stdout)).toEqual({ id: "alice", email: "a@example.com", name: null, role: "admin" });
      expect(run(["users", "add", "--id", "alice"], env).code).toBe(2);
      expect(run(["users", "add", "--id", "bob", "--role", "root"], env).stderr).toContain("--role");
      expect(run(["keys", "create", "--limit", "lots"], env).code).toBe(2);
    } finally {
      await gw.stop();
    }
    // eight CLI processes, about half a second each: more than the default 5 s on a loaded machine
  }, 30_000);

  test("config check prints the effective config with secrets masked", () => {
    const out = run(["config", "check"], { DATABASE_URL: ":memory:", GATEWAY_ADMIN_KEY: ADMIN_KEY });
    expect(out.code).toBe(0);
    const config = JSON.parse(out.stdout);
    expect(config.port).toBe(8080);
    expect(out.stdout).not.toContain(ADMIN_KEY);
    expect(config.admin_key).toBe("sk-g…ef");
  });

  test("config check says what serve runs with: upstream requests at once and the open-file limit raised to its hard limit", () => {
    const { BUN_CONFIG_MAX_HTTP_REQUESTS: _unset, ...env } = process.env;
    // a soft limit of 1,024, as many distributions set it, under a higher hard one
    const proc = Bun.spawnSync(["bash", "-c", "ulimit -Sn 1024 && exec bun src/main.ts config check"], {
      env: { ...env, DATABASE_URL: ":memory:", LOG_LEVEL: "error" },
    });
    expect(proc.exitCode).toBe(0);
    const config = JSON.parse(proc.stdout.toString()) as { max_upstream_requests: number; open_files: { soft_before: number; soft: number; hard: number } };
    expect(config.max_upstream_requests).toBe(65535);
    const hard = Number(Bun.spawnSync(["bash", "-c", "ulimit -Hn"]).stdout.toString().trim());
    expect(config.open_files).toEqual({ soft_before: expect.any(Number), soft: hard, hard });
    const set = run(["config", "check"], { DATABASE_URL: ":memory:", BUN_CONFIG_MAX_HTTP_REQUESTS: "4096" });
    expect(JSON.parse(set.stdout).max_upstream_requests).toBe(4096);
    const wrong = run(["config", "check"], { DATABASE_URL: ":memory:", BUN_CONFIG_MAX_HTTP_REQUESTS: "70000" });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("BUN_CONFIG_MAX_HTTP_REQUESTS");
  });

  test("config check spells keys as gateway.yaml does, with HOST and the default providers the environment enabled", async () => {
    const dir = tempDir();
    const yaml = join(dir, "gateway.yaml");
    await Bun.write(
      yaml,
      "providers:\n  - { slug: groq, api: openai-chat, base_url: http://127.0.0.1:9/v1, api_key: own-groq-key, headers: { x-token: abcdefghijkl } }\nrouting: { circuit_failures: 3 }\n",
    );
    const env = {
      DATABASE_URL: `file:${join(dir, "g.db")}`,
      HOST: "127.0.0.1",
      PORT: "9090",
      GATEWAY_CONFIG: yaml,
      OPENAI_API_KEY: "sk-openai-secret-value",
      GATEWAY_INSTANCE_ID: "vm-1",
      GATEWAY_METRICS_TOKEN: "metrics-token-0123456789",
    };
    // only these variables: a provider key in the test runner's environment would enable its provider too
    const proc = Bun.spawnSync([process.execPath, "src/main.ts", "config", "check"], { env: { PATH: process.env.PATH, LOG_LEVEL: "error", ...env } });
    const out = { code: proc.exitCode, stdout: proc.stdout.toString() };
    expect(out.code).toBe(0);
    expect(out.stdout).not.toContain("sk-openai-secret-value");
    expect(out.stdout).not.toContain("own-groq-key");
    expect(out.stdout).not.toContain("abcdefghijkl");
    expect(out.stdout).not.toContain("metrics-token-0123456789");
    const { providers, models, ...config } = JSON.parse(out.stdout);
    expect(config).toEqual({
      config_file: yaml,
      port: 9090,
      host: "127.0.0.1",
      database: { dialect: "sqlite", path: join(dir, "g.db") },
      data_dir: dir,
      redis: null,
      instance_id: "vm-1",
      reservation_lease_ms: 120000,
      max_upstream_requests: 65535,
      shutdown_grace_seconds: 30,
      admin_key: null,
      secret_key: null,
      log_level: "error",
      server: { max_body_mb: 32, cors_origins: ["*"], public_url: null },
      routing: { first_byte_timeout_ms: 60000, circuit_failures: 3, circuit_cooldown_ms: 30000 },
      security: { allow_private_urls: false },
      metrics: { token: "metr…89" },
      jobs: { workers: 1, backoff_seconds: [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400], lease_seconds: 60, concurrency: 32, poll_seconds: 2 },
      responses: { item_retention_minutes: 60 },
      sessions: { idle_minutes: 720, max_hours: 168 },
      video_models: [],
      videos: { poll_initial_ms: 5000, poll_max_ms: 30000, deadline_minutes: 60, retention_days: 7 },
      storage: { s3: null },
      open_files: expect.any(Object),
      catalog: {
        default: true,
        list_unavailable: false,
        active_default_providers: [
          { slug: "groq", enabled_by: "gateway.yaml providers[0].api_key" },
          { slug: "openai", enabled_by: "OPENAI_API_KEY" },
        ],
      },
    });
    expect(providers).toEqual([{ slug: "groq", api: "openai-chat", base_url: "http://127.0.0.1:9/v1", api_key: "own-…ey", headers: { "x-token": "abcd…kl" } }]);
    expect(models).toEqual([]);
  });
});

describe("bootstrap", () => {
  test("first start creates owner, default workspace and one printed management key; restarts add nothing", async () => {
    const dir = tempDir();
    const config = loadConfig({ DATABASE_URL: `file:${join(dir, "g.db")}`, PORT: "0" });
    const first = await startGateway(config, { hostname: "127.0.0.1", logger: silentLogger });
    const raw = first.boot.createdManagementKey!;
    expect(raw).toMatch(/^sk-gw-v1-/);
    expect((await fetch(`${first.url}/api/v1/keys`, { headers: { authorization: `Bearer ${raw}` } })).status).toBe(200);
    await first.stop();
    const second = await startGateway(config, { hostname: "127.0.0.1", logger: silentLogger });
    expect(second.boot.createdManagementKey).toBeUndefined();
    expect(await second.ctx.store.keys.countManagement()).toBe(1);
    expect(await second.ctx.store.users.count()).toBe(1);
    expect(await second.ctx.store.workspaces.count()).toBe(1);
    await second.stop();
  });

  test("GATEWAY_ADMIN_KEY is idempotent across restarts", async () => {
    const dir = tempDir();
    const config = loadConfig({ DATABASE_URL: `file:${join(dir, "g.db")}`, PORT: "0", GATEWAY_ADMIN_KEY: ADMIN_KEY });
    for (let i = 0; i < 2; i++) {
      const gw = await startGateway(config, { hostname: "127.0.0.1", logger: silentLogger });
      expect(gw.boot.createdManagementKey).toBeUndefined();
      expect(await gw.ctx.store.keys.countManagement()).toBe(1);
      expect((await fetch(`${gw.url}/api/v1/key`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).status).toBe(200);
      await gw.stop();
    }
  });
});

describe("bootstrap after the default workspace was deleted", () => {
  test("a new default is made even when its slug is taken, and the admin key moves to it", async () => {
    const { bootstrap } = await import("../../src/bootstrap");
    const { createSqliteStore } = await import("../../src/store/sqlite");
    const { authenticate } = await import("../../src/http/auth");
    const store = createSqliteStore(":memory:");
    await bootstrap(store, { adminKey: ADMIN_KEY, now: 1 });
    const original = (await store.workspaces.getDefault())!;
    await store.workspaces.delete(original.id, 2);
    await store.workspaces.create({ ...original, id: crypto.randomUUID(), isDefault: false, name: "Taken", slug: "default", createdAt: 3 });
    await bootstrap(store, { adminKey: ADMIN_KEY, now: 4 });
    const fresh = (await store.workspaces.getDefault())!;
    expect(fresh.id).not.toBe(original.id);
    expect(fresh.slug).toMatch(/^default-[0-9a-f]{8}$/);
    expect((await authenticate(store, ADMIN_KEY, 5)).workspace.id).toBe(fresh.id);
    await store.close();
  });
});
