/**
 * Copies onto `target` the fields of `fields` that are set (not undefined), in their order. Every
 * request's decode and encode build their optional fields this way, so it walks the keys with
 * for-in rather than Object.entries: no array per field per request.
 */
export function assignDefined<T extends object>(target: T, fields: object): T {
  const into = target as Record<string, unknown>;
  const from = fields as Record<string, unknown>;
  for (const key in from) {
    const value = from[key];
    if (value !== undefined) into[key] = value;
  }
  return target;
}
