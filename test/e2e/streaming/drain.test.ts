// SIGTERM drains the way a load balancer needs it (src/drain.ts): /ready answers 503 at once, a
// stream in flight completes, a connection opened during the drain is served and told to close,
// the listener stays open until no request came for DRAIN_QUIET_MS, the process exits 0; what is
// still running when GATEWAY_SHUTDOWN_GRACE_SECONDS run out is cut.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { join } from "node:path";
import { DRAIN_QUIET_MS } from "../../../src/drain";
import { DRAINING } from "../../../src/modules/health";
import { ADMIN_KEY, tempDir } from "../../support/gateway";
import { type GatewayProcess, startGatewayProcess } from "../../support/gateway-process";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";

let up: MockUpstream;
beforeAll(async () => {
  up = await startMockUpstream();
});
afterAll(() => up.stop());

async function startDraining(env: Record<string, string> = {}): Promise<{ gw: GatewayProcess; key: string }> {
  const dir = tempDir("gw-drain-");
  const yaml = join(dir, "gateway.yaml");
  await Bun.write(
    yaml,
    `providers:\n  - { slug: m, api: openai-chat, base_url: "${up.url}", api_key: k }\nmodels:\n  - { id: t/slow, endpoints: [{ provider: m, model: slow }] }\ncatalog: { default: false }\n`,
  );
  const gw = await startGatewayProcess({ DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_CONFIG: yaml, WORKERS: "0", ...env });
  const created = (await (await gw.api("/api/v1/keys", { method: "POST", json: { name: "drain" } })).json()) as { key: string };
  return { gw, key: created.key };
}

function chat(gw: GatewayProcess, key: string, stream: boolean): Promise<Response> {
  return gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: "t/slow", stream, messages: [{ role: "user", content: "count" }] } });
}

/** One GET on a connection of its own, as a balancer opens one: the status, the Connection header, and whether the server closed the socket after answering. */
function freshConnectionGet(port: number, path: string): Promise<{ status: number; connection: string | undefined; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let raw = "";
    socket.on("data", (chunk) => (raw += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = ""] = raw.split("\r\n\r\n");
      const status = Number(head.split(" ")[1]);
      const connection = /^connection: *(.*)$/im.exec(head)?.[1]?.trim().toLowerCase();
      resolve({ status, connection, closedByServer: !timedOut });
    });
    let timedOut = false;
    // a server that keeps the connection open gets it closed by us after 2 s
    setTimeout(() => {
      timedOut = true;
      socket.end();
    }, 2_000);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

/** The body as far as it came before the connection was cut. */
async function readUntilCut(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
  } catch {
    // cut: what came is what we have
  }
  return text;
}

const refused = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  );

test("SIGTERM: /ready 503 at once, the stream in flight completes, new connections are served until traffic stops, exit 0", async () => {
  const { gw, key } = await startDraining();
  try {
    up.enqueue({ text: ["one ", "two ", "three"], chunkDelayMs: 500, usage: { input: 5, output: 3 } });
    const stream = await chat(gw, key, true);
    expect(stream.status).toBe(200);
    const signalled = performance.now();
    gw.proc.kill("SIGTERM");

    let ready: Response;
    do ready = await fetch(`${gw.url}/ready`);
    while (ready.status === 200 && performance.now() - signalled < 2_000);
    const notReadyAfter = performance.now() - signalled;
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ error: { code: 503, message: `Not ready: ${DRAINING}`, metadata: { unavailable: [DRAINING] } } });
    console.log(`drain: /ready answered 503 ${notReadyAfter.toFixed(0)} ms after SIGTERM`);
    expect(notReadyAfter).toBeLessThan(500);

    // a balancer that has not noticed yet opens a new connection: served, and told to close it
    const late = await freshConnectionGet(gw.port, "/api/v1/models");
    expect(late).toEqual({ status: 200, connection: "close", closedByServer: true });
    up.enqueue({ text: "served while draining", usage: { input: 1, output: 3 } });
    const whole = await chat(gw, key, false);
    expect(whole.status).toBe(200);
    expect(((await whole.json()) as any).choices[0].message.content).toBe("served while draining");

    const text = await stream.text();
    expect(text).toContain('"content":"three"');
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const lastAnswer = performance.now();
    expect(await (await fetch(`${gw.url}/ready`)).status).toBe(503);

    // probes do not keep it open: the listener closes DRAIN_QUIET_MS after the last answer
    let open = true;
    while (open && performance.now() - lastAnswer < DRAIN_QUIET_MS + 5_000) {
      open = !(await refused(`${gw.url}/health`));
      if (open) await Bun.sleep(100);
    }
    const closedAfter = performance.now() - lastAnswer;
    console.log(`drain: listener closed ${closedAfter.toFixed(0)} ms after the last answer (quiet spell ${DRAIN_QUIET_MS} ms)`);
    expect(closedAfter).toBeGreaterThanOrEqual(DRAIN_QUIET_MS - 200);
    expect(closedAfter).toBeLessThan(DRAIN_QUIET_MS + 2_000);
    expect(await gw.proc.exited).toBe(0);
  } finally {
    await gw.kill();
  }
}, 30_000);

test("SIGTERM: a balancer that keeps sending gets half the grace, what still runs when GATEWAY_SHUTDOWN_GRACE_SECONDS end is cut, exit 0", async () => {
  const { gw, key } = await startDraining({ GATEWAY_SHUTDOWN_GRACE_SECONDS: "2" });
  try {
    up.enqueue({ text: ["a ", "b ", "c ", "d ", "e ", "f ", "g ", "h"], chunkDelayMs: 1_000, usage: { input: 5, output: 8 } });
    const stream = await chat(gw, key, true);
    expect(stream.status).toBe(200);
    const signalled = performance.now();
    gw.proc.kill("SIGTERM");
    // requests every 100 ms: never a quiet spell, so the listener closes half-way through the grace
    let served = 0;
    while (
      (await gw.api("/api/v1/models").then(
        (r) => r.status,
        () => 0,
      )) === 200
    ) {
      served++;
      await Bun.sleep(100);
    }
    const listenedFor = performance.now() - signalled;
    console.log(`drain: a balancer that kept sending had ${served} requests served, the listener closed ${listenedFor.toFixed(0)} ms after SIGTERM`);
    expect(listenedFor).toBeGreaterThanOrEqual(950);
    expect(listenedFor).toBeLessThan(1_600);
    const text = await readUntilCut(stream);
    expect(text).toContain('"content":"a "');
    expect(text).not.toContain("data: [DONE]");
    expect(await gw.proc.exited).toBe(0);
    const took = performance.now() - signalled;
    console.log(`drain: a grace of 2 s ended the process ${took.toFixed(0)} ms after SIGTERM`);
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(5_000);
  } finally {
    await gw.kill();
  }
}, 30_000);

test("SIGINT: no quiet spell, the listener closes at once while the stream in flight completes", async () => {
  const { gw, key } = await startDraining();
  try {
    up.enqueue({ text: ["one ", "two"], chunkDelayMs: 700, usage: { input: 5, output: 2 } });
    const stream = await chat(gw, key, true);
    gw.proc.kill("SIGINT");
    let open = true;
    const signalled = performance.now();
    while (open && performance.now() - signalled < 1_000) open = !(await refused(`${gw.url}/health`));
    expect(open).toBe(false);
    expect(await stream.text()).toContain("data: [DONE]");
    expect(await gw.proc.exited).toBe(0);
  } finally {
    await gw.kill();
  }
}, 30_000);
