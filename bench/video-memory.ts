/**
 * Video outputs are streamed to storage, not buffered: peak RSS of a gateway process while its
 * worker copies one output of BENCH_VIDEO_MB (default 200) MB, against the same gateway copying
 * a 300 KB output, and the job throughput of one worker against the mock (jobs/s).
 * A benchmark, not a test: it prints figures and exits 0.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { videoYaml } from "../test/e2e/videos/setup";
import { startGatewayProcess } from "../test/support/gateway-process";
import { startOpenAiVideoMock } from "../test/support/video-mocks/openai-videos";

const MB = Number(process.env.BENCH_VIDEO_MB ?? 200);
const JOBS = Number(process.env.BENCH_VIDEO_JOBS ?? 50);

const rssOf = (pid: number, field: "VmRSS" | "VmHWM") =>
  Number(
    /(\d+) kB/.exec(
      readFileSync(`/proc/${pid}/status`, "utf8")
        .split("\n")
        .find((l) => l.startsWith(field))!,
    )![1],
  ) / 1024;

async function run(bytes: number, jobs: number): Promise<{ peakMb: number; idleMb: number; seconds: number }> {
  const up = startOpenAiVideoMock({ bytes });
  const dir = mkdtempSync(join(tmpdir(), "video-bench-"));
  const yaml = join(dir, "gateway.yaml");
  writeFileSync(yaml, videoYaml(up.url).replace("deadline_minutes: 0.05", "deadline_minutes: 10"));
  const gw = await startGatewayProcess({ DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_CONFIG: yaml, WORKERS: "1", GATEWAY_DEFAULT_CATALOG: "false" });
  try {
    const created = (await (await gw.api("/api/v1/keys", { method: "POST", json: { name: "bench" } })).json()) as { key: string };
    const idleMb = rssOf(gw.proc.pid, "VmRSS");
    const started = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < jobs; i++) {
      const res = await gw.api("/api/v1/videos", { method: "POST", key: created.key, json: { model: "openai/sora-2", prompt: `clip ${i}`, duration: 4 } });
      ids.push(((await res.json()) as { id: string }).id);
    }
    for (const id of ids) {
      for (;;) {
        const job = (await (await gw.api(`/api/v1/videos/${id}`, { key: created.key })).json()) as { status: string };
        if (job.status === "completed") break;
        if (job.status === "failed") throw new Error(`job ${id} failed`);
        await Bun.sleep(20);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    return { peakMb: rssOf(gw.proc.pid, "VmHWM"), idleMb, seconds };
  } finally {
    await gw.stop();
    up.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const small = await run(300_000, 1);
const large = await run(MB * 1024 * 1024, 1);
const many = await run(300_000, JOBS);
console.log(
  `one ${MB} MB output: peak RSS ${large.peakMb.toFixed(1)} MB (idle ${large.idleMb.toFixed(1)} MB); one 0.3 MB output: peak RSS ${small.peakMb.toFixed(1)} MB (idle ${small.idleMb.toFixed(1)} MB)`,
);
console.log(
  `throughput of one worker: ${JOBS} jobs of 0.3 MB in ${many.seconds.toFixed(2)} s = ${(JOBS / many.seconds).toFixed(1)} jobs/s (poll_initial_ms 40)`,
);
