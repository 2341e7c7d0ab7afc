// Many long streams at once (streams.ts): `n` clients, each reading one streamed answer to its
// end and starting the next at once, so `n` stay open. The clients' first requests are spread
// over `rampMs` (one stream's length), so their restarts stay spread out too. Runs in the bench
// process, never in a measured one. A window (startWindow … endWindow) collects the time to first
// byte of the streams started inside it; errors are counted over the whole load.
import { bodyOf, type RequestSpec } from "./load";

export type WindowFigures = { ttfbs: number[]; completed: number };

export type StreamLoad = {
  /** streams open now, as the clients see them */
  open(): number;
  errors(): number;
  /** the first few errors' messages, for the report */
  errorSamples(): string[];
  startWindow(): void;
  endWindow(): WindowFigures;
  /** no more restarts; resolves once every open stream has ended */
  stop(): Promise<void>;
};

/** After a failed stream a client waits this long before the next, so a refusing target is not hammered. */
const RETRY_PAUSE_MS = 100;
const KEPT_ERROR_SAMPLES = 5;

export function startStreamLoad(spec: RequestSpec, n: number, rampMs: number, endMarker: string): StreamLoad {
  let running = true;
  let open = 0;
  let errors = 0;
  const samples: string[] = [];
  let window: WindowFigures | null = null;
  const tailDecoder = new TextDecoder();

  const fail = (message: string) => {
    errors++;
    if (samples.length < KEPT_ERROR_SAMPLES) samples.push(message);
  };

  /** one stream to its end; false when it failed */
  const once = async (): Promise<boolean> => {
    const into = window;
    const t0 = performance.now();
    open++;
    try {
      const res = await fetch(spec.url, { method: "POST", headers: spec.headers, body: bodyOf(spec) });
      if (res.status !== 200) {
        fail(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
        return false;
      }
      const reader = res.body!.getReader();
      let first = true;
      let last: Uint8Array | null = null;
      let beforeLast: Uint8Array | null = null;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value.byteLength === 0) continue;
        if (first) {
          into?.ttfbs.push(performance.now() - t0);
          first = false;
        }
        beforeLast = last;
        last = value;
      }
      // the marker may straddle the last two reads
      const tail = (beforeLast ? tailDecoder.decode(beforeLast.subarray(-64)) : "") + (last ? tailDecoder.decode(last) : "");
      if (!tail.includes(endMarker)) {
        fail(`stream ended without ${endMarker}: …${tail.slice(-120)}`);
        return false;
      }
      if (into) into.completed++;
      return true;
    } catch (err) {
      fail((err as Error).message);
      return false;
    } finally {
      open--;
    }
  };

  const client = async (delayMs: number) => {
    await Bun.sleep(delayMs);
    while (running) if (!(await once())) await Bun.sleep(RETRY_PAUSE_MS);
  };
  const clients = Array.from({ length: n }, (_, i) => client((i * rampMs) / n));

  return {
    open: () => open,
    errors: () => errors,
    errorSamples: () => [...samples],
    startWindow() {
      window = { ttfbs: [], completed: 0 };
    },
    endWindow() {
      const w = window ?? { ttfbs: [], completed: 0 };
      window = null;
      return w;
    },
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}
