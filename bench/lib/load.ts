// Closed-loop load generator: `concurrency` workers each send the next request as
// soon as their previous one has been read to the end. Runs in the bench process,
// never in a measured one. Given several specs, requests take them in turn (a mixed load).

/** `body` as a function: a new body for every request (e.g. a prompt never asked before, for response-cache misses) */
export type RequestSpec = { url: string; headers: Record<string, string>; body: string | (() => string); stream: boolean };

export const bodyOf = (spec: RequestSpec): string => (typeof spec.body === "string" ? spec.body : spec.body());

export type BatchResult = {
  /** wall time of the whole batch, ms */
  wallMs: number;
  /** per request: send to last body byte, ms */
  latencies: number[];
  /** per request: send to first body chunk, ms (streams only) */
  ttfbs: number[];
};

/** One request read to its end; records into `into` when given. */
async function once(spec: RequestSpec, into: { latencies: number[]; ttfbs: number[] } | null): Promise<void> {
  const t0 = performance.now();
  const res = await fetch(spec.url, { method: "POST", headers: spec.headers, body: bodyOf(spec) });
  if (res.status !== 200) throw new Error(`${spec.url}: HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  if (!spec.stream) {
    await res.arrayBuffer();
    into?.latencies.push(performance.now() - t0);
    return;
  }
  const reader = res.body!.getReader();
  let first = true;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (first && value.byteLength > 0) {
      into?.ttfbs.push(performance.now() - t0);
      first = false;
    }
  }
  into?.latencies.push(performance.now() - t0);
}

/** Runs workers while `more(issued)` holds; returns the wall time (ms) and the number of requests. */
async function closedLoop(specs: RequestSpec[], concurrency: number, more: (issued: number) => boolean, into: { latencies: number[]; ttfbs: number[] } | null) {
  let issued = 0;
  const worker = async () => {
    while (more(issued)) await once(specs[issued++ % specs.length]!, into);
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { wallMs: performance.now() - t0, issued };
}

export async function runBatch(spec: RequestSpec | RequestSpec[], requests: number, concurrency: number): Promise<BatchResult> {
  const into = { latencies: [] as number[], ttfbs: [] as number[] };
  const specs = Array.isArray(spec) ? spec : [spec];
  const { wallMs } = await closedLoop(specs, Math.min(concurrency, requests), (issued) => issued < requests, into);
  return { wallMs, ...into };
}

/** Load for `ms` without recording anything per request (soak); returns the number of requests. */
export async function runFor(specs: RequestSpec[], ms: number, concurrency: number): Promise<number> {
  const end = performance.now() + ms;
  return (await closedLoop(specs, concurrency, () => performance.now() < end, null)).issued;
}

/** One request read fully as text, to check a target answers what we expect before timing it. */
export async function fetchText(spec: RequestSpec): Promise<string> {
  const res = await fetch(spec.url, { method: "POST", headers: spec.headers, body: bodyOf(spec) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${spec.url}: HTTP ${res.status}: ${text.slice(0, 300)}`);
  return text;
}
