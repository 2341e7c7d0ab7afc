// The Portkey gateway (Node) as one more target, only with BENCH_PORTKEY=1. It is installed
// with npm into a folder under the system temp dir (never a project dependency), kept there
// between runs, started under `node` on a loopback port and pointed, per request, at the same
// mock upstream as an OpenAI-compatible provider (x-portkey-provider + x-portkey-custom-host).
//
// @hono/node-server is overridden to 2.x: with the 1.19 that Portkey 1.15.2 resolves, on Node 20
// every streaming request fails with `TypeError: immutable` (Portkey appends headers to the
// upstream Response, whose headers undici made immutable); 2.x copies the headers first.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Child, spawnCommand } from "./child";

const PORTKEY_RANGE = "~1.15.0";
const NODE_SERVER_RANGE = "^2.1.9";
const DIR = process.env.BENCH_PORTKEY_DIR ?? join(tmpdir(), "gw-bench-portkey");
const ENTRY = join(DIR, "node_modules/@portkey-ai/gateway/build/start-server.js");

function installedVersion(pkg: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(DIR, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return null;
  }
}

function describeInstall(): string {
  return `@portkey-ai/gateway ${installedVersion("@portkey-ai/gateway")} with @hono/node-server ${installedVersion("@hono/node-server")}`;
}

/** Installs Portkey into DIR unless a fitting install is there; returns what is installed, or throws why not. */
async function ensureInstalled(): Promise<string> {
  const ok = () => /^1\.15\./.test(installedVersion("@portkey-ai/gateway") ?? "") && /^2\./.test(installedVersion("@hono/node-server") ?? "");
  if (ok()) return describeInstall();
  mkdirSync(DIR, { recursive: true });
  const manifest = {
    name: "gw-bench-portkey",
    private: true,
    type: "module",
    dependencies: { "@portkey-ai/gateway": PORTKEY_RANGE },
    overrides: { "@hono/node-server": NODE_SERVER_RANGE },
  };
  writeFileSync(join(DIR, "package.json"), JSON.stringify(manifest, null, 2));
  console.log(`installing Portkey into ${DIR} (npm) ...`);
  // --ignore-scripts: Portkey's postinstall (patch-package) has no patches in the published package
  const npm = Bun.spawn(["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { cwd: DIR, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => npm.kill(), 300_000);
  const [code, out, err] = await Promise.all([npm.exited, new Response(npm.stdout).text(), new Response(npm.stderr).text()]);
  clearTimeout(timer);
  if (code !== 0) throw new Error(`npm install failed (exit ${code}): ${(err || out).trim().split("\n").slice(-3).join(" | ")}`);
  if (!ok()) throw new Error(`npm installed ${describeInstall()}, not the versions asked for`);
  return describeInstall();
}

async function freeLoopbackPort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = probe;
  probe.stop(true);
  return port;
}

export type Portkey = { child: Child<{ url: string }>; installed: string; node: string };

/** Installs (if needed) and starts Portkey; throws with the reason when it cannot. */
export async function startPortkey(): Promise<Portkey> {
  const node = Bun.which("node");
  if (!node) throw new Error("node is not on PATH");
  const installed = await ensureInstalled();
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing`);
  const version = (await new Response(Bun.spawn([node, "--version"], { stdout: "pipe" }).stdout).text()).trim();
  const port = await freeLoopbackPort();
  const child = await spawnCommand<{ url: string }>(
    [node, "--import", join(import.meta.dir, "../portkey.preload.mjs"), ENTRY, `--port=${port}`, "--headless"],
    {
      BENCH_PORTKEY_PORT: String(port),
      NODE_ENV: "production",
    },
  );
  return { child, installed, node: `node ${version}` };
}

/** Portkey's per-request routing headers: an OpenAI-compatible provider at the mock's URL. */
export function portkeyHeaders(upstreamUrl: string): Record<string, string> {
  return {
    "content-type": "application/json",
    authorization: "Bearer bench-key",
    "x-portkey-provider": "openai",
    "x-portkey-custom-host": upstreamUrl,
  };
}
