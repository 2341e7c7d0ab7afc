/**
 * At most this many generations in one export: about 2 spans each, so within the 512 spans an
 * OpenTelemetry SDK's batch processor exports at once by default, which receivers are sized for.
 */
export const MAX_EXPORT_GENERATIONS = 200;

/** At most about this many characters of spans in one export: New Relic refuses a body over 1 MB; larger exports are the ones a receiver answers 413. */
export const MAX_EXPORT_CHARS = 900_000;

/**
 * Cuts generations' spans (JSON, one string per generation, in order) into the index ranges of
 * consecutive exports within both caps; a generation larger than the character cap goes alone.
 */
export function exportChunks(spans: readonly string[], maxCount = MAX_EXPORT_GENERATIONS, maxChars = MAX_EXPORT_CHARS): Array<{ start: number; end: number }> {
  const chunks: Array<{ start: number; end: number }> = [];
  let start = 0;
  let chars = 0;
  for (let i = 0; i < spans.length; i++) {
    const size = spans[i]!.length + 1;
    if (i > start && (i - start >= maxCount || chars + size > maxChars)) {
      chunks.push({ start, end: i });
      start = i;
      chars = 0;
    }
    chars += size;
  }
  if (spans.length > 0) chunks.push({ start, end: spans.length });
  return chunks;
}
