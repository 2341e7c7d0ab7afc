// A job worker thread loads its own copy of every module it imports (about 21 MB of a default
// gateway's idle memory before the chains below were cut, 15 MB after). It serves no HTTP and
// is never scraped: the HTTP framework, the Prometheus client, the config schema and the default
// catalog have no business in it. This checks the worker entry's module graph.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const WORKER_ENTRY = join(import.meta.dir, "../../../src/workers/jobs.worker.ts");

test("a job worker's module graph holds no HTTP framework, metrics client, config schema or default catalog", async () => {
  const outdir = mkdtempSync(join(tmpdir(), "gw-worker-graph-"));
  try {
    const result = await Bun.build({ entrypoints: [WORKER_ENTRY], target: "bun", outdir, metafile: true });
    expect(result.success).toBe(true);
    const inputs = Object.keys(result.metafile!.inputs);
    // the graph is read at all: the worker's own modules are there
    expect(inputs.some((path) => path.endsWith("src/jobs/runner.ts"))).toBe(true);
    const unwanted = [
      /node_modules\/elysia\//,
      /node_modules\/prom-client\//,
      /node_modules\/@sinclair\/typebox\//,
      /src\/config-schema\.ts$/,
      /default-catalog\.generated\.json$/,
    ];
    expect(inputs.filter((path) => unwanted.some((pattern) => pattern.test(path)))).toEqual([]);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});
