/**
 * Calls `wake` at once, then at most once per `everyMs`: a call inside the window is folded into
 * one at its end. For the wake-ups that forwarded generations send the job workers: under load
 * every commit would post a message and start a drain; folded, a drain takes many rows at once
 * (fewer write transactions beside the requests' own) and forwarding waits `everyMs` at most.
 * `everyMs` as a function is read at each call: a window that depends on how busy the caller is.
 */
export function throttledWakeup(wake: () => void, everyMs: number | (() => number)): () => void {
  const windowMs = typeof everyMs === "number" ? () => everyMs : everyMs;
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer !== undefined) return;
    const wait = last + windowMs() - performance.now();
    if (wait <= 0) {
      last = performance.now();
      wake();
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      last = performance.now();
      wake();
    }, wait);
    timer.unref?.();
  };
}
