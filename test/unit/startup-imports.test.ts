// What a gateway loads when it starts is resident for its whole life and parsed on every cold
// start. The libraries only some providers or none need are loaded when first used: Smithy (the
// Bedrock signer and event-stream codec), jose (Vertex's token grants), and prom-client's entry
// (its Pushgateway loads node:http and node:https, its default collectors @opentelemetry/api).
// This walks the static imports from the server's module (dynamic ones load later) and checks
// none of them is reached.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");

test("starting the server loads neither Smithy, jose, prom-client's entry nor @opentelemetry/api", async () => {
  const outdir = mkdtempSync(join(tmpdir(), "gw-start-graph-"));
  try {
    const result = await Bun.build({ entrypoints: [join(ROOT, "src/server.ts")], target: "bun", outdir, metafile: true, root: ROOT });
    expect(result.success).toBe(true);
    const inputs = result.metafile!.inputs;
    const loaded = new Set<string>();
    const visit = (path: string) => {
      if (loaded.has(path) || !inputs[path]) return;
      loaded.add(path);
      for (const i of inputs[path].imports) if (i.kind !== "dynamic-import") visit(i.path);
    };
    visit("src/server.ts");
    // the walk reached what the server does load: prom-client's classes, each from its file
    expect(loaded.has("node_modules/prom-client/lib/histogram.js")).toBe(true);
    const unwanted = [/node_modules\/@smithy\//, /node_modules\/jose\//, /node_modules\/prom-client\/index\.js$/, /node_modules\/@opentelemetry\//];
    expect([...loaded].filter((path) => unwanted.some((pattern) => pattern.test(path)))).toEqual([]);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});
