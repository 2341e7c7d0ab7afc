/**
 * Compiles the gateway into one self-contained executable, dist/gateway.
 * Not minified: Elysia's compiled handlers break under --minify.
 * Worker files (src/workers/*.worker.ts) are extra entrypoints so `new Worker` finds them in the binary.
 */
import { Glob } from "bun";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const workers = [...new Glob("src/workers/*.worker.ts").scanSync(root)];
const target = process.env.BUILD_TARGET; // e.g. bun-linux-x64, bun-linux-arm64, bun-darwin-arm64
const outfile = process.env.BUILD_OUTFILE ?? "dist/gateway";

const args = ["build", "--compile", "src/main.ts", ...workers, "--outfile", outfile];
if (target) args.push(`--target=${target}`);

const embed = Bun.spawnSync(["bun", "scripts/embed-migrations.ts"], { cwd: root, stdout: "inherit", stderr: "inherit" });
if (embed.exitCode !== 0) process.exit(embed.exitCode ?? 1);
const proc = Bun.spawnSync(["bun", ...args], { cwd: root, stdout: "inherit", stderr: "inherit" });
process.exit(proc.exitCode ?? 1);
