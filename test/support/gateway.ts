import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, loadConfig } from "../../src/config";
import { type Logger, silentLogger } from "../../src/logger";
import type { HostLookup } from "../../src/outbound/host-lookup";
import { type RunningGateway, startGateway } from "../../src/server";

export const ADMIN_KEY = "sk-gw-v1-test-admin-key-0123456789abcdef0123456789abcdef";

export type TestGateway = RunningGateway & {
  adminKey: string;
  dir: string;
  /** fetch against the gateway with the admin key unless headers say otherwise */
  api(path: string, init?: RequestInit & { key?: string | null; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
};

export function tempDir(prefix = "gw-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export type TestGatewayOptions = {
  env?: Record<string, string>;
  yaml?: string;
  dir?: string;
  clock?: () => number;
  configure?: (config: Config) => void;
  idleTimeoutSeconds?: number;
  /** where log lines go (silent by default) */
  logger?: Logger;
  /** modules adding job kinds to the workers' registry */
  jobModules?: string[];
  /** answers the host names of user-supplied URLs (webhooks) instead of the system resolver */
  lookup?: HostLookup;
};

export async function startTestGateway(opts: TestGatewayOptions = {}): Promise<TestGateway> {
  const dir = opts.dir ?? tempDir();
  const env: Record<string, string> = {
    PORT: "0",
    DATABASE_URL: `file:${join(dir, "gateway.db")}`,
    GATEWAY_ADMIN_KEY: ADMIN_KEY,
    LOG_LEVEL: "error",
    // job worker threads only where a test is about them (WORKERS: "1")
    WORKERS: "0",
    ...opts.env,
  };
  if (opts.yaml !== undefined) {
    const path = join(dir, "gateway.yaml");
    await Bun.write(path, opts.yaml);
    env.GATEWAY_CONFIG = path;
  }
  const config = loadConfig(env);
  opts.configure?.(config);
  const gw = await startGateway(config, {
    hostname: "127.0.0.1",
    logger: opts.logger ?? silentLogger,
    clock: opts.clock,
    idleTimeoutSeconds: opts.idleTimeoutSeconds,
    jobModules: opts.jobModules,
    lookup: opts.lookup,
  });
  const api: TestGateway["api"] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    const key = init.key === undefined ? ADMIN_KEY : init.key;
    if (key !== null && !headers.has("authorization")) headers.set("authorization", `Bearer ${key}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    return fetch(gw.url + path, { ...init, headers, body });
  };
  return {
    ...gw,
    adminKey: ADMIN_KEY,
    dir,
    api,
    async close() {
      await gw.stop();
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates an inference key through the API and returns its raw secret and hash. */
export async function createInferenceKey(gw: TestGateway, body: Record<string, unknown> = {}): Promise<{ key: string; hash: string; data: any }> {
  const res = await gw.api("/api/v1/keys", { method: "POST", json: { name: "test key", ...body } });
  if (res.status !== 201) throw new Error(`create key failed: ${res.status} ${await res.text()}`);
  const json = (await res.json()) as { key: string; data: { hash: string } };
  return { key: json.key, hash: json.data.hash, data: json.data };
}
