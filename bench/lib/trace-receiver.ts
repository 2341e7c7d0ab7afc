/**
 * The loopback OTLP receiver of the observability benches: counts the generations delivered (one
 * trace each), not the requests, since a drain's generations to one destination arrive in one
 * export. Answers 204 as a webhook receiver may.
 */
export function startTraceReceiver(): { url: string; delivered: () => number; exports: () => number; stop: () => void } {
  let delivered = 0;
  let exports = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      const body = (await req.json()) as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<{ traceId: string }> }> }> };
      const traces = new Set<string>();
      for (const resource of body.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? []) for (const span of scope.spans ?? []) traces.add(span.traceId);
      delivered += traces.size;
      exports++;
      return new Response(null, { status: 204 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, delivered: () => delivered, exports: () => exports, stop: () => server.stop(true) };
}
