// Child process: the floor. A bare Bun pass-through proxy, the least any gateway
// can add: read the request body (any gateway must, to route), forward it with
// fetch, return the upstream body as is.
import { announceReady, onTerminate } from "./lib/child";

const upstream = new URL(process.env.BENCH_UPSTREAM_URL ?? "").origin;
if (upstream === "null") throw new Error("BENCH_UPSTREAM_URL is required");

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    const res = await fetch(upstream + path, {
      method: req.method,
      headers: { "content-type": req.headers.get("content-type") ?? "application/json", authorization: req.headers.get("authorization") ?? "" },
      body: await req.arrayBuffer(),
    });
    return new Response(res.body, { status: res.status, headers: { "content-type": res.headers.get("content-type") ?? "application/json" } });
  },
});
onTerminate(() => server.stop(true));
announceReady({ url: `http://127.0.0.1:${server.port}` });
