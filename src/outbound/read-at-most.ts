/**
 * Reads at most `max` bytes of a body, then cancels it, so a receiver streaming without end costs
 * `max` bytes of memory. A body that fails midway keeps what was read (the status already decided).
 */
export async function readAtMost(body: ReadableStream<Uint8Array> | null, max: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = true;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) {
        truncated = false;
        break;
      }
      const kept = value.subarray(0, max - size);
      chunks.push(kept);
      size += kept.length;
    }
  } catch {
    // the status line is what counts; a body cut short is kept as far as it came
  } finally {
    reader.cancel().catch(() => {});
  }
  return { bytes: Buffer.concat(chunks), truncated };
}
