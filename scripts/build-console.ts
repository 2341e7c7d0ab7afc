/**
 * Bundles the web console (src/console/web, Preact + uPlot) into one script and one stylesheet,
 * written to src/console/assets/ and committed, like the embedded migrations: `bun start`,
 * `bun test` and `bun build --compile` then need no extra step on a clean clone, and the binary
 * embeds them through text imports (src/console/assets.ts). test/unit/console/assets.test.ts fails
 * when the committed files are not what this script makes from the sources.
 *
 *   bun scripts/build-console.ts        rewrite the bundle after changing src/console/web
 *
 * The bundle is minified (it is browser code, not the Elysia handlers that --minify breaks).
 */
import { join } from "node:path";

const root = join(import.meta.dir, "..");
export const ASSET_DIR = join(root, "src/console/assets");
export const SCRIPT_FILE = join(ASSET_DIR, "console.bundle.js");
export const STYLE_FILE = join(ASSET_DIR, "console.bundle.css");

export async function buildConsoleAssets(): Promise<{ script: string; style: string }> {
  const result = await Bun.build({
    entrypoints: [join(root, "src/console/web/main.tsx")],
    target: "browser",
    format: "esm",
    minify: true,
    sourcemap: "none",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new AggregateError(result.logs, "console bundle failed");
  const script = result.outputs.find((o) => o.kind === "entry-point");
  const style = result.outputs.find((o) => o.path.endsWith(".css"));
  if (!script || !style) throw new Error(`console bundle: expected a script and a stylesheet, got ${result.outputs.map((o) => o.path).join(", ")}`);
  return { script: await script.text(), style: await style.text() };
}

if (import.meta.main) {
  const { script, style } = await buildConsoleAssets();
  await Bun.write(SCRIPT_FILE, script);
  await Bun.write(STYLE_FILE, style);
  console.log(`console bundle: ${script.length} bytes of script, ${style.length} bytes of style in ${ASSET_DIR}`);
}
