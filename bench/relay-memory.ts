// What reading a fetch body in JavaScript costs a relay per open stream (`bun bench/relay-memory.ts`):
// a slow SSE upstream, then for each mode a fresh relay process and a client process holding
// BENCH_RELAY_STREAMS streams open through it; the relay's RSS with the streams open (median of 20
// samples over 10 s, after 6 s) minus its idle RSS, per stream, and its CPU over those 10 s (all
// threads, /proc's 10 ms ticks) per event relayed. Modes (BENCH_RELAY_MODES):
//   native   — `new Response(upstream.body)`: Bun pipes the body without JavaScript (the floor's way)
//   reader   — a JavaScript reader of the upstream body, a default ReadableStream to the client
//   direct   — the same reader, a Bun direct stream to the client (the gateway's way)
// The gateway must read every event (metering, the id rewrite, the end held for the record), so
// `reader`/`direct` against `native` is the least its memory per stream can be against the floor.
// See bench/README.md, "Many long streams". A benchmark: it exits 0 whatever it measured.
import { readFileSync } from "node:fs";

const role = process.argv[2];
const chunk = new TextEncoder().encode(
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "hello " }, finish_reason: null }] })}\n\n`,
);
/** user + system CPU of a process, µs (10 ms ticks) */
const cpuUs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) * 10_000;
};
const rssMb = (pid: number | "self" = "self") => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const sse = { headers: { "content-type": "text/event-stream" } };

if (role === "upstream") {
  // one event every 100 ms for a minute per stream
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch() {
      let timer: Timer | undefined;
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          const send = () => {
            c.enqueue(chunk);
            if (++sent === 600) c.close();
            else timer = setTimeout(send, 100);
          };
          send();
        },
        cancel: () => clearTimeout(timer),
      });
      return new Response(body, sse);
    },
  });
  console.log(server.port);
} else if (role === "relay") {
  const [upstreamPort, mode] = [process.argv[3], process.argv[4]];
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch() {
      const res = await fetch(`http://127.0.0.1:${upstreamPort}/`);
      if (mode === "native") return new Response(res.body, sse);
      const reader = res.body!.getReader();
      if (mode === "direct")
        return new Response(
          new ReadableStream({
            type: "direct",
            async pull(c: { write(s: string): void; flush(): void; close(): void }) {
              for (let r = await reader.read(); !r.done; r = await reader.read()) {
                c.write(decoder.decode(r.value, { stream: true }));
                c.flush();
              }
              c.close();
            },
          } as unknown as UnderlyingDefaultSource<Uint8Array>),
          sse,
        );
      const out = new ReadableStream<Uint8Array>({
        async start(c) {
          for (let r = await reader.read(); !r.done; r = await reader.read()) c.enqueue(encoder.encode(decoder.decode(r.value, { stream: true })));
          c.close();
        },
      });
      return new Response(out, sse);
    },
  });
  console.log(server.port);
} else if (role === "client") {
  const [port, n] = [process.argv[3], Number(process.argv[4])];
  for (let i = 0; i < n; i++)
    void (async () => {
      const reader = (await fetch(`http://127.0.0.1:${port}/`)).body!.getReader();
      while (!(await reader.read()).done);
    })();
  setInterval(() => {}, 1000);
} else {
  const N = Number(process.env.BENCH_RELAY_STREAMS ?? 2000);
  const modes = (process.env.BENCH_RELAY_MODES ?? "native,reader,direct").split(",");
  const env = { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "65535" };
  const self = import.meta.path;
  const firstLine = async (p: Bun.Subprocess<"ignore", "pipe">) => {
    const reader = p.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    return new TextDecoder().decode(value).trim();
  };
  const upstream = Bun.spawn(["bun", self, "upstream"], { stdout: "pipe", env });
  const upstreamPort = await firstLine(upstream);
  console.log(`relay memory: ${N} streams of one event every 100 ms through a fresh relay per mode`);
  for (const mode of modes) {
    const relay = Bun.spawn(["bun", self, "relay", upstreamPort, mode], { stdout: "pipe", env });
    const port = await firstLine(relay);
    await Bun.sleep(1000);
    const idle = rssMb(relay.pid);
    const client = Bun.spawn(["bun", self, "client", port, String(N)], { env });
    await Bun.sleep(6000);
    const samples: number[] = [];
    const cpu0 = cpuUs(relay.pid);
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) {
      await Bun.sleep(500);
      samples.push(rssMb(relay.pid));
    }
    // every stream sends one event each 100 ms
    const events = (N * (performance.now() - t0)) / 100;
    const perEvent = (cpuUs(relay.pid) - cpu0) / events;
    samples.sort((a, b) => a - b);
    const open = samples[10]!;
    console.log(
      `  ${mode.padEnd(7)} idle ${idle.toFixed(1)} MB, ${N} streams open ${open.toFixed(1)} MB: ${(((open - idle) * 1024) / N).toFixed(1)} KB a stream; CPU ${perEvent.toFixed(2)} µs a relayed event`,
    );
    client.kill();
    relay.kill();
    await Promise.all([client.exited, relay.exited]);
  }
  upstream.kill();
}
