/**
 * Cuts items (each a JSON string, in order) into the index ranges of consecutive requests of at
 * most `maxCount` items and about `maxChars` characters; an item larger than the character cap
 * goes alone. For the senders that put many generations in one request (sendMany).
 */
export function batchRanges(items: readonly string[], maxCount: number, maxChars: number): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = [];
  let start = 0;
  let chars = 0;
  for (let i = 0; i < items.length; i++) {
    const size = items[i]!.length + 1;
    if (i > start && (i - start >= maxCount || chars + size > maxChars)) {
      ranges.push({ start, end: i });
      start = i;
      chars = 0;
    }
    chars += size;
  }
  if (items.length > 0) ranges.push({ start, end: items.length });
  return ranges;
}
