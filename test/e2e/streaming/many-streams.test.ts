// Bun's fetch runs 256 requests at once unless BUN_CONFIG_MAX_HTTP_REQUESTS is set when the
// process starts; the gateway started as the README starts it must still carry every stream.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/gateway";
import { type GatewayProcess, startGatewayProcess } from "../../support/gateway-process";

const STREAMS = 600;
const encoder = new TextEncoder();
const chunk = (content: string) =>
  encoder.encode(
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "slow", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`,
  );

/** An upstream that holds every stream open after its first event until STREAMS are open at once. */
function slowUpstream() {
  let open = 0;
  let mostAtOnce = 0;
  let release!: () => void;
  const allOpen = new Promise<void>((resolve) => (release = resolve));
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch() {
      open++;
      mostAtOnce = Math.max(mostAtOnce, open);
      if (open === STREAMS) release();
      const body = new ReadableStream<Uint8Array>({
        async start(c) {
          c.enqueue(chunk("held"));
          // never past the test's own limit: a gateway that queues streams fails the count below
          await Promise.race([allOpen, Bun.sleep(5_000)]);
          c.enqueue(chunk(" released"));
          c.enqueue(
            encoder.encode(
              `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "slow", choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })}\n\ndata: [DONE]\n\n`,
            ),
          );
          c.close();
          open--;
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, mostAtOnce: () => mostAtOnce, stop: () => server.stop(true) };
}

let upstream: ReturnType<typeof slowUpstream>;
let gw: GatewayProcess;
let dir: string;
beforeAll(async () => {
  upstream = slowUpstream();
  dir = tempDir("gw-many-streams-");
  const yaml = join(dir, "gateway.yaml");
  await Bun.write(
    yaml,
    `providers:\n  - { slug: s, api: openai-chat, base_url: "${upstream.url}", api_key: k }\nmodels:\n  - { id: t/slow, endpoints: [{ provider: s, model: slow }] }\ncatalog: { default: false }\n`,
  );
  // no BUN_CONFIG_MAX_HTTP_REQUESTS from the test runner: `bun start` sets nothing either
  const { BUN_CONFIG_MAX_HTTP_REQUESTS: _unset, ...env } = process.env;
  gw = await startGatewayProcess({ ...(env as Record<string, string>), DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_CONFIG: yaml, LOG_LEVEL: "info" });
});
afterAll(async () => {
  await gw?.stop();
  upstream?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test(`${STREAMS} slow streams reach the upstream at once through a gateway started as \`bun start\` starts it`, async () => {
  const created = (await (await gw.api("/api/v1/keys", { method: "POST", json: { name: "many" } })).json()) as { key: string };
  const client = Bun.spawn(["bun", join(import.meta.dir, "many-streams-client.ts"), gw.url, created.key, String(STREAMS)], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(STREAMS * 2) },
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = JSON.parse(await new Response(client.stdout).text()) as { ok: number; statuses: number[] };
  expect(upstream.mostAtOnce()).toBe(STREAMS);
  expect(out).toEqual({ ok: STREAMS, statuses: [200] });
}, 60_000);

test("the gateway started itself again in place: same process, the variable set, both limits in its ready line", async () => {
  // the PID the test spawned is the one serving: systemd, containers and SIGKILL see one process
  const environ = (await Bun.file(`/proc/${gw.proc.pid}/environ`).text()).split("\0");
  expect(environ).toContain("BUN_CONFIG_MAX_HTTP_REQUESTS=65535");
  await gw.stop();
  const log = await new Response(gw.proc.stderr).text();
  const ready = log.split("\n").find((l) => l.includes('"gateway listening"'))!;
  const line = JSON.parse(ready) as { max_upstream_requests: number; open_files: { soft: number; hard: number }; listen_backlog: number | null };
  expect(line.max_upstream_requests).toBe(65535);
  expect(line.open_files.soft).toBe(line.open_files.hard);
  expect(line.open_files.hard).toBeGreaterThan(0);
  // the queue of connections waiting for accept: Bun's 512 deepened to what the system allows (Linux)
  const somaxconn = process.platform === "linux" ? Number(readFileSync("/proc/sys/net/core/somaxconn", "utf8")) : 0;
  expect(line.listen_backlog).toBe(somaxconn > 512 ? Math.min(somaxconn, 65535) : null);
});
