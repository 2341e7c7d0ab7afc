/**
 * What a handler throws to steer its retries. Any other error is retried on the backoff
 * schedule until the kind's attempt limit.
 */

/** Try again after `seconds` (an upstream's Retry-After), instead of the next backoff step; still counts as an attempt. */
export class RetryAfter extends Error {
  override name = "RetryAfter";
  readonly afterMs: number;
  /** the job is waiting, not failing (a video job polling an upstream): logged at debug, not warn */
  readonly expected: boolean;
  constructor(seconds: number, message: string, opts: { expected?: boolean } = {}) {
    super(message);
    this.afterMs = Math.max(0, Math.round(seconds * 1000));
    this.expected = opts.expected ?? false;
  }
}

/** Retrying cannot help (the receiver is gone, the input is invalid): the job is dead at once. */
export class PermanentFailure extends Error {
  override name = "PermanentFailure";
}
