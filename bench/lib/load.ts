// Closed-loop load generator: `concurrency` workers each send the next request as
// soon as their previous one has been read to the end. Runs in the bench process,
// never in a measured one.

export type RequestSpec = { url: string; headers: Record<string, string>; body: string; stream: boolean };

export type BatchResult = {
  /** wall time of the whole batch, ms */
  wallMs: number;
  /** per request: send to last body byte, ms */
  latencies: number[];
  /** per request: send to first body chunk, ms (streams only) */
  ttfbs: number[];
};

async function once(spec: RequestSpec, latencies: number[], ttfbs: number[]): Promise<void> {
  const t0 = performance.now();
  const res = await fetch(spec.url, { method: "POST", headers: spec.headers, body: spec.body });
  if (res.status !== 200) throw new Error(`${spec.url}: HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  if (!spec.stream) {
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    return;
  }
  const reader = res.body!.getReader();
  let first = true;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (first && value.byteLength > 0) {
      ttfbs.push(performance.now() - t0);
      first = false;
    }
  }
  latencies.push(performance.now() - t0);
}

export async function runBatch(spec: RequestSpec, requests: number, concurrency: number): Promise<BatchResult> {
  const latencies: number[] = [];
  const ttfbs: number[] = [];
  let issued = 0;
  const worker = async () => {
    while (issued < requests) {
      issued++;
      await once(spec, latencies, ttfbs);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, requests) }, worker));
  return { wallMs: performance.now() - t0, latencies, ttfbs };
}

/** One request read fully as text, to check a target answers what we expect before timing it. */
export async function fetchText(spec: RequestSpec): Promise<string> {
  const res = await fetch(spec.url, { method: "POST", headers: spec.headers, body: spec.body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${spec.url}: HTTP ${res.status}: ${text.slice(0, 300)}`);
  return text;
}
