/**
 * The signal one upstream call runs under: aborted when the client goes away (the caller's
 * signal) or when nothing arrived before the first-byte deadline. `met()` stops the deadline
 * once the upstream has started answering; the client's abort still reaches the call after.
 */
export type FirstByteDeadline = { signal: AbortSignal; timedOut: () => boolean; met: () => void };

export function firstByteDeadline(clientSignal: AbortSignal, ms: number): FirstByteDeadline {
  // one controller both causes abort, rather than AbortSignal.any over two: a fetch under it costs
  // the request a few µs less (measured against a loopback upstream)
  const call = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    call.abort(new DOMException("first byte timeout", "TimeoutError"));
  }, ms);
  if (clientSignal.aborted) call.abort(clientSignal.reason);
  else clientSignal.addEventListener("abort", () => call.abort(clientSignal.reason), { once: true });
  return { signal: call.signal, timedOut: () => timedOut, met: () => clearTimeout(timer) };
}
