/** Polls `probe` until it gives a value; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000, everyMs = 5): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(everyMs);
  }
}
