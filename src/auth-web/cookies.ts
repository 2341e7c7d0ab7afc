import type { AppContext } from "../app-context";

/** A cookie's value from the request's Cookie header; undefined when absent. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Secure when the browser reached us over HTTPS: the request's own scheme, the scheme a reverse
 * proxy reports (X-Forwarded-Proto), or an https public URL (a proxy that terminates TLS and says
 * nothing).
 */
export function cookiesSecure(ctx: Pick<AppContext, "config">, request: Request): boolean {
  if (ctx.config.server.publicUrl?.startsWith("https:")) return true;
  if (new URL(request.url).protocol === "https:") return true;
  return request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}

export type CookieOptions = {
  secure: boolean;
  /** seconds; 0 deletes the cookie; absent: a browser-session cookie */
  maxAge?: number;
  sameSite: "Lax" | "Strict";
  path?: string;
};

/** One Set-Cookie value; always HttpOnly: no script of ours reads these cookies. */
export function cookieHeader(name: string, value: string, opts: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${opts.path ?? "/"}`, "HttpOnly", `SameSite=${opts.sameSite}`];
  if (opts.maxAge !== undefined) parts.push(`Max-Age=${opts.maxAge}`);
  if (opts.secure) parts.push("Secure");
  return parts.join("; ");
}
