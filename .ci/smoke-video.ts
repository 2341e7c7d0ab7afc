/**
 * CI: the compiled binary runs a video job end to end from an empty folder (its job worker
 * starts from the binary): submit, poll to completed, download the bytes the mock made.
 * Usage: bun .ci/smoke-video.ts dist/gateway
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startOpenAiVideoMock } from "../test/support/video-mocks/openai-videos";
import { videoYaml } from "../test/e2e/videos/setup";

const binary = resolve(process.argv[2] ?? "dist/gateway");
const admin = "sk-gw-v1-ci-video-smoke-admin-key-0123456789abcdef0123";
const up = startOpenAiVideoMock({ bytes: 1_000_000 });
const dir = mkdtempSync(join(tmpdir(), "video-smoke-"));
writeFileSync(join(dir, "gateway.yaml"), videoYaml(up.url).replace("deadline_minutes: 0.05", "deadline_minutes: 2"));
const port = (() => {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port;
  s.stop(true);
  return p;
})();
const proc = Bun.spawn([binary, "serve"], {
  cwd: dir,
  env: { PATH: "/usr/bin:/bin", HOST: "127.0.0.1", PORT: String(port), DATABASE_URL: `file:${join(dir, "data/gateway.db")}`, GATEWAY_ADMIN_KEY: admin, WORKERS: "1", LOG_LEVEL: "warn" },
  stdout: "ignore",
  stderr: "inherit",
});
const url = `http://127.0.0.1:${port}`;
const call = (path: string, key: string, init: RequestInit = {}) => fetch(url + path, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } });

try {
  for (let i = 0; i < 100 && !(await fetch(`${url}/ready`).then((r) => r.ok, () => false)); i++) await Bun.sleep(100);
  const { key } = (await (await call("/api/v1/keys", admin, { method: "POST", body: JSON.stringify({ name: "video smoke", limit: 5 }) })).json()) as { key: string };
  const submitted = await call("/api/v1/videos", key, { method: "POST", body: JSON.stringify({ model: "openai/sora-2", prompt: "a smoke test", duration: 4 }) });
  if (submitted.status !== 202) throw new Error(`submit answered ${submitted.status}: ${await submitted.text()}`);
  const { id } = (await submitted.json()) as { id: string };
  let status = "pending";
  for (let i = 0; i < 300 && status !== "completed"; i++) {
    status = ((await (await call(`/api/v1/videos/${id}`, key)).json()) as { status: string }).status;
    if (status === "failed") throw new Error("the video job failed");
    await Bun.sleep(50);
  }
  if (status !== "completed") throw new Error(`the video job is still ${status}`);
  const content = new Uint8Array(await (await call(`/api/v1/videos/${id}/content?index=0`, key)).arrayBuffer());
  if (content.length !== up.bytes.length || !content.every((b, i) => b === up.bytes[i])) throw new Error("the downloaded video differs from the upstream's");
  console.log(`video smoke test passed: job ${id} completed by the binary's worker, ${content.length} bytes downloaded`);
} finally {
  proc.kill("SIGTERM");
  await proc.exited;
  up.stop();
  rmSync(dir, { recursive: true, force: true });
}
