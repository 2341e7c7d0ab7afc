/** Where a sign-in goes when nothing asked for a page: the web console. */
export const DEFAULT_NEXT = "/console";

const BASE = "http://gateway.invalid";

/**
 * A `next` parameter as a path of this site, or DEFAULT_NEXT: only a relative path starting with
 * one slash is kept, so a sign-in can never send the browser to another origin ("//evil",
 * "/\\evil", "https://evil" and the like all fall back).
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > 2048 || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return DEFAULT_NEXT;
  if (/[\u0000-\u001f\u007f]/.test(next)) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== BASE) return DEFAULT_NEXT;
  return url.pathname + url.search + url.hash;
}
