/**
 * JavaScriptCore compiles a function on its JIT threads once it has run often enough. Starting,
 * the gateway runs thousands of functions a few times each (the configuration, the catalog, the
 * store's statements, every route), so on 2 cores those compilations took about 40 ms of CPU from
 * the start itself (bench/README.md, "Cold start"). `serve` raises the thresholds while it starts
 * and puts them back once it listens, so what serves requests is compiled as it always is.
 */
const STARTUP_SCALE = 100;

export function beginStartupJitPolicy(): void {
  Bun.unsafe.setJITPolicy(STARTUP_SCALE);
}

export function endStartupJitPolicy(): void {
  Bun.unsafe.setJITPolicy(1);
}
