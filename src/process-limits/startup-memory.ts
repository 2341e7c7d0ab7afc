/**
 * Start-up runs much code exactly once and leaves much garbage (the configuration's text, the
 * catalog's JSON, the migrations, every route's schema), and JavaScriptCore keeps what it
 * compiled for it. Once the start is over, a full collection and `Bun.shrink` (drop the code
 * caches, collect, hand free pages back): a fresh gateway then idles at the same resident memory
 * every time. Left to the collector's own timing it idled at about 78 MB in some starts and 85 MB
 * in others, by whether a collection happened to run after the start's garbage was dropped (a
 * heap of 8.8 MB or of 13.2 MB, bench/README.md, "Idle memory").
 *
 * `serve` schedules it for a moment after it listens: taken at the listen, the pause (about 10 ms
 * in the release binary) delayed the first answer by as much. A process that embeds the gateway,
 * as the tests do, holds more than the gateway and decides for itself (a full collection there
 * took 15-29 ms). `Bun.shrink` is deprecated with nothing named in its place; where it is gone the
 * collection alone runs.
 */
export function releaseStartupMemory(): void {
  Bun.gc(true);
  const shrink = (Bun as { shrink?: () => void }).shrink;
  if (typeof shrink === "function") shrink();
}

/**
 * How long after listening the start is over: its memory is released then, and the job workers
 * start (src/server.ts), once the first answers have had the CPU.
 */
export const STARTUP_SETTLE_MS = 200;

export function releaseStartupMemorySoon(): void {
  setTimeout(releaseStartupMemory, STARTUP_SETTLE_MS).unref();
}
