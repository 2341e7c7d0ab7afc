const FREE = 0;
const HELD = 1;

/**
 * How long a write step waits for another thread's before it goes on without the lock, as
 * SQLite's `busy_timeout` (client.ts) does: then SQLite's own lock decides, as between processes.
 */
const GIVE_UP_AFTER_MS = 5_000;

/**
 * The SQLite write lock as the threads of one process share it: the serving thread and its job
 * workers each have a connection to the same file. Without it, a serving-thread write that meets
 * a job worker's write transaction waits in SQLite's busy handler, which sleeps the thread: the
 * whole event loop stops (sleeps of 1 and 2 ms under strace; 20 stalls of 7 ms on average in 8.6 s of
 * forwarding under load). With it, a write step that finds the lock taken waits on
 * `Atomics.waitAsync`, and the thread serves everything else meanwhile.
 *
 * Advisory: SQLite's own lock still guards the file (other processes, the CLI), so a step that
 * gave up waiting is still correct, only no longer polite.
 */
export class ThreadWriteLock {
  private readonly cell: Int32Array;

  /** `buffer`: the lock of the thread that made it (a job worker gets the serving thread's) */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.cell = new Int32Array(buffer);
  }

  /** takes the lock if no thread holds it */
  tryTake(): boolean {
    return Atomics.compareExchange(this.cell, 0, FREE, HELD) === FREE;
  }

  /** resolves true once this thread holds the lock, or false after `giveUpAfterMs` without it */
  async take(giveUpAfterMs = GIVE_UP_AFTER_MS): Promise<boolean> {
    const deadline = performance.now() + giveUpAfterMs;
    while (!this.tryTake()) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      const waiting = Atomics.waitAsync(this.cell, 0, HELD, left);
      if (waiting.async) await waiting.value;
    }
    return true;
  }

  release(): void {
    Atomics.store(this.cell, 0, FREE);
    Atomics.notify(this.cell, 0);
  }
}
