/**
 * Headers of every /console response. The pages run only the bundled script and stylesheet
 * from this origin: no inline script, no other origin, never inside a frame. `style-src` allows
 * no inline `<style>` either; the chart library sets element styles through the CSSOM
 * (`el.style.x = ...`), which CSP does not govern. Images may be data: URLs (the Playground's
 * generated images) and audio a blob: URL (the Playground's speech, read from a POST's answer).
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
};

/** Whether a request URL's path is /console or under it; reads the string without parsing a URL (every request asks). */
export function isConsoleUrl(url: string): boolean {
  const path = url.indexOf("/", url.indexOf("//") + 2);
  if (path < 0 || !url.startsWith("/console", path)) return false;
  const next = url[path + 8];
  return next === undefined || next === "/" || next === "?" || next === "#";
}

/** adds the console's headers to a response made elsewhere (an error rendered by the app's handler) */
export function withConsoleHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(CONSOLE_HEADERS)) response.headers.set(name, value);
  return response;
}
