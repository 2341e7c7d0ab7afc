// `gateway healthcheck`, the container image's HEALTHCHECK: 0 when /health on HOST and PORT
// answers 200 within 2 s, else 1 (never 2, which Docker reserves).
import { expect, test } from "bun:test";
import { healthUrl } from "../../src/cli/healthcheck";
import { startTestGateway } from "../support/gateway";
import { freePort } from "../support/gateway-process";

async function healthcheck(env: Record<string, string>) {
  const proc = Bun.spawn(["bun", "src/main.ts", "healthcheck"], { env: { ...process.env, LOG_LEVEL: "error", ...env }, stdout: "pipe", stderr: "pipe" });
  const started = performance.now();
  const code = await proc.exited;
  return { code, ms: performance.now() - started, stdout: await new Response(proc.stdout).text(), stderr: await new Response(proc.stderr).text() };
}

test("a running gateway is healthy on its HOST and PORT, an any-address HOST reached on loopback; a stopped one is not", async () => {
  const gw = await startTestGateway();
  const port = String(gw.port);
  try {
    const up = await healthcheck({ HOST: "127.0.0.1", PORT: port });
    expect(up).toMatchObject({ code: 0, stdout: `healthy: http://127.0.0.1:${port}/health answered 200\n`, stderr: "" });
    // the image runs it with the server's own HOST=0.0.0.0
    expect((await healthcheck({ HOST: "0.0.0.0", PORT: port })).code).toBe(0);
  } finally {
    await gw.close();
  }
  const down = await healthcheck({ HOST: "127.0.0.1", PORT: port });
  expect(down.code).toBe(1);
  expect(down.stdout).toBe("");
  expect(down.stderr).toStartWith(`unhealthy: http://127.0.0.1:${port}/health: `);
}, 20_000);

test("an answer other than 200, no answer within 2 s and a bad PORT are unhealthy, exit 1", async () => {
  let hang = true;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async () => {
      if (hang) await Bun.sleep(5_000);
      return new Response("no", { status: 503 });
    },
  });
  try {
    const slow = await healthcheck({ HOST: "127.0.0.1", PORT: String(server.port) });
    expect(slow.code).toBe(1);
    expect(slow.stderr).toBe(`unhealthy: http://127.0.0.1:${server.port}/health: no answer within 2000 ms\n`);
    console.log(`healthcheck: gave up on a server that does not answer after ${slow.ms.toFixed(0)} ms (process included)`);
    expect(slow.ms).toBeGreaterThanOrEqual(2_000);
    expect(slow.ms).toBeLessThan(4_500);
    hang = false;
    const refused = await healthcheck({ HOST: "127.0.0.1", PORT: String(server.port) });
    expect(refused).toMatchObject({ code: 1, stderr: `unhealthy: http://127.0.0.1:${server.port}/health answered 503\n` });
  } finally {
    await server.stop(true);
  }
  const bad = await healthcheck({ HOST: "127.0.0.1", PORT: "eighty" });
  expect(bad).toMatchObject({ code: 1, stderr: 'unhealthy: config error: PORT: expected an integer from 0 to 65535 (got "eighty")\n' });
  expect((await healthcheck({ HOST: "127.0.0.1", PORT: String(await freePort()) })).code).toBe(1);
}, 20_000);

test("the address it calls: loopback for any-address listeners, IPv6 in brackets", () => {
  expect(healthUrl("0.0.0.0", 8080)).toBe("http://127.0.0.1:8080/health");
  expect(healthUrl("::", 8080)).toBe("http://[::1]:8080/health");
  expect(healthUrl("[::]", 8080)).toBe("http://[::1]:8080/health");
  expect(healthUrl("fd00::5", 9000)).toBe("http://[fd00::5]:9000/health");
  expect(healthUrl("gateway.internal", 80)).toBe("http://gateway.internal:80/health");
});
