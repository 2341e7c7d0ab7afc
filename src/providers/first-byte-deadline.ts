/**
 * The signal one upstream call runs under: aborted when the client goes away (the caller's
 * signal) or when nothing arrived before the first-byte deadline. `met()` stops the deadline
 * once the upstream has started answering; the client's abort still reaches the call after.
 */
export type FirstByteDeadline = { signal: AbortSignal; timedOut: () => boolean; met: () => void };

export function firstByteDeadline(clientSignal: AbortSignal, ms: number): FirstByteDeadline {
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort(new DOMException("first byte timeout", "TimeoutError"));
  }, ms);
  return { signal: AbortSignal.any([clientSignal, deadline.signal]), timedOut: () => timedOut, met: () => clearTimeout(timer) };
}
