/**
 * Start-up runs much code exactly once and leaves much garbage (the configuration's text, the
 * catalog's JSON, the migrations, every route's schema), and JavaScriptCore keeps what it
 * compiled for it. Once the start is over, a full collection and `Bun.shrink` (drop the code
 * caches, collect, hand free pages back): a fresh gateway then idles at the same resident memory
 * every time. Left to the collector's own timing it idled at about 78 MB in some starts and 85 MB
 * in others, by whether a collection happened to run after the start's garbage was dropped (a
 * heap of 8.8 MB or of 13.2 MB, bench/README.md, "Idle memory"); the collection costs one pause
 * of a few milliseconds. `Bun.shrink` is deprecated with nothing named in its place; where it is
 * gone the collection alone runs.
 */
export function releaseStartupMemory(): void {
  Bun.gc(true);
  const shrink = (Bun as { shrink?: () => void }).shrink;
  if (typeof shrink === "function") shrink();
}
