/**
 * Compiles the gateway into self-contained executables (no Bun or node_modules where they run).
 *
 *   bun run build                  the host target -> dist/gateway (what CI builds and smoke-tests)
 *   bun run build --release        every release target -> dist/release/, with SHA256SUMS
 *   bun run build --all            the same as --release
 *
 * BUILD_TARGET (e.g. bun-linux-arm64) cross-compiles the single build; BUILD_OUTFILE moves it.
 * Not minified: Elysia's compiled handlers break under --minify. Worker files
 * (src/workers/*.worker.ts) are extra entrypoints so `new Worker` finds them in the binary.
 * --bytecode with --format=esm: the parse of the bundle is done at build time, which makes both
 * starts of a binary (it starts itself again with BUN_CONFIG_MAX_HTTP_REQUESTS, src/main.ts) about
 * 50 ms faster each (bench/README.md, "Cold start"). The CommonJS output --bytecode defaults to
 * cannot hold the top-level awaits, and with it (Bun 1.4.5) the job worker could not load ipaddr.js.
 * --splitting: what src/main.ts imports only after it may have started itself again is a chunk of
 * its own, with the Node and Bun modules it imports; in one bundle Bun loads every such module
 * (node:crypto, bun:sqlite, ...) before the first line runs, in both starts. --bytecode-order: the
 * bytecode a start runs first in the file (scripts/bytecode-order.ts).
 */

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Glob } from "bun";
import pkg from "../package.json" with { type: "json" };
import { recordBytecodeOrder } from "./bytecode-order";

/** Release targets: Bun's target name -> the file name's suffix. */
export const RELEASE_TARGETS: Record<string, string> = {
  "bun-linux-x64": "linux-x64",
  // for x64 CPUs without AVX2 (before Haswell, some virtual CPUs)
  "bun-linux-x64-baseline": "linux-x64-baseline",
  "bun-linux-x64-musl": "linux-x64-musl",
  "bun-linux-x64-musl-baseline": "linux-x64-musl-baseline",
  "bun-linux-arm64": "linux-arm64",
  "bun-linux-arm64-musl": "linux-arm64-musl",
  "bun-darwin-arm64": "darwin-arm64",
  "bun-darwin-x64": "darwin-x64",
};

const root = join(import.meta.dir, "..");
const workers = [...new Glob("src/workers/*.worker.ts").scanSync(root)];

function run(args: string[]): void {
  const proc = Bun.spawnSync(["bun", ...args], { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1);
}

function compile(outfile: string, opts: { target?: string; bytecodeOrder?: string | null } = {}): void {
  const args = ["build", "--compile", "--bytecode", "--format=esm", "--splitting", "src/main.ts", ...workers, "--outfile", outfile];
  if (opts.target) args.push(`--target=${opts.target}`);
  if (opts.bytecodeOrder) args.push(`--bytecode-order=${opts.bytecodeOrder}`);
  run(args);
}

/** A host binary of this code, started once to record the bytecode order every target is then built with. */
async function bytecodeOrder(dir: string): Promise<string | null> {
  const probe = join(dir, "gateway-bytecode-order-probe");
  compile(probe);
  const profile = await recordBytecodeOrder(probe, dir);
  rmSync(probe, { force: true });
  if (!profile) console.warn("no bytecode order recorded: the binary is built without one (it starts about 10 ms slower)");
  return profile;
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

const release = process.argv.includes("--release") || process.argv.includes("--all");
run(["scripts/embed-migrations.ts"]);
// the console's bundle, embedded by text imports (src/console/assets.ts)
run(["scripts/build-console.ts"]);

if (!release) {
  const outfile = process.env.BUILD_OUTFILE ?? "dist/gateway";
  mkdirSync(dirname(join(root, outfile)), { recursive: true });
  const order = await bytecodeOrder(dirname(join(root, outfile)));
  compile(outfile, { target: process.env.BUILD_TARGET, bytecodeOrder: order });
  if (order) rmSync(order, { force: true });
} else {
  const dir = join(root, "dist/release");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const order = await bytecodeOrder(dir);
  const files = Object.values(RELEASE_TARGETS).map((suffix) => join(dir, `gateway-${pkg.version}-${suffix}`));
  Object.keys(RELEASE_TARGETS).forEach((target, i) => compile(files[i]!, { target, bytecodeOrder: order }));
  if (order) rmSync(order, { force: true });
  // the format `sha256sum -c SHA256SUMS` reads
  writeFileSync(join(dir, "SHA256SUMS"), files.map((f) => `${sha256(f)}  ${basename(f)}\n`).join(""));
  console.log(`release binaries and SHA256SUMS in ${dir}`);
}
