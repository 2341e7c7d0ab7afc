/** The longest one upstream call of a video job may take (submit, poll), and one output's download. */
export const VIDEO_CALL_TIMEOUT_MS = 120_000;
export const VIDEO_DOWNLOAD_TIMEOUT_MS = 600_000;

/**
 * Runs one upstream call under the job's signal and a time limit: the limit, or the time left
 * before the job's deadline when that is shorter, so a hung upstream can neither hold a worker
 * slot forever nor carry a job past its deadline. A call cut by the limit ends as `onTimeout`;
 * one cut by the job's own signal (the worker stopping) still throws.
 */
export async function boundedCall<T>(
  signal: AbortSignal,
  msLeft: number,
  call: (signal: AbortSignal) => Promise<T>,
  onTimeout: (ms: number) => T,
  limitMs = VIDEO_CALL_TIMEOUT_MS,
): Promise<T> {
  const ms = Math.max(1, Math.min(limitMs, msLeft));
  const timeout = AbortSignal.timeout(ms);
  try {
    return await call(AbortSignal.any([signal, timeout]));
  } catch (err) {
    if (timeout.aborted && !signal.aborted) return onTimeout(ms);
    throw err;
  }
}
