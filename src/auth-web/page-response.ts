import type { Html } from "./html";

/**
 * The headers of every sign-in and consent page: nothing inline may run or style (no
 * 'unsafe-inline'), the pages cannot be framed (clickjacking an Authorize button), and no page
 * address leaks to the sites it links or redirects to. `formTargets` are the origins a form may
 * end up at: browsers apply form-action to the redirect that follows a submission, so the
 * consent form names the app's callback origin.
 */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(" ");
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
  };
}

export function htmlResponse(
  status: number,
  body: Html,
  opts: { setCookies?: string[]; formTargets?: string[]; headers?: Record<string, string> } = {},
): Response {
  const headers = new Headers({ ...pageHeaders(opts.formTargets), ...opts.headers });
  for (const cookie of opts.setCookies ?? []) headers.append("set-cookie", cookie);
  return new Response(body.text, { status, headers });
}

/** 303: after a form, the browser follows with a GET. */
export function redirect(location: string, setCookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" });
  for (const cookie of setCookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}
