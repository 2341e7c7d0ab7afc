/**
 * A field of a submitted form (urlencoded, or JSON from a script), as a string: missing, repeated
 * or non-string fields read as undefined, so a form cannot smuggle an array where one value goes.
 */
export function formField(body: unknown, name: string): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}
