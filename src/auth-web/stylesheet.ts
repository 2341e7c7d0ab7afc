import { Elysia } from "elysia";
// text import: embedded in the compiled binary, so the pages need no file on disk and no internet
import css from "./auth.css" with { type: "text" };
import { STYLESHEET_PATH } from "./pages/layout";

/** The one stylesheet of the sign-in pages, served as a file: their CSP allows no inline styles. */
export function stylesheetRoute() {
  return new Elysia({ name: "auth-web-stylesheet" }).get(
    STYLESHEET_PATH,
    () =>
      new Response(css, {
        headers: { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" },
      }),
    { detail: { hide: true } },
  );
}
