import { Elysia } from "elysia";
// Embedded in the compiled binary so /docs works with no internet access.
import scalarBundle from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };

const PAGE = `<!doctype html>
<html>
  <head>
    <title>Model Gateway API</title>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" data-url="/api/v1/openapi.json"></script>
    <script>
      document.getElementById("api-reference").dataset.configuration = JSON.stringify({ withDefaultFonts: false, hideClientButton: true });
    </script>
    <script src="/docs/scalar.js"></script>
  </body>
</html>`;

export function docsRoutes() {
  return new Elysia({ name: "docs" })
    .get("/docs", () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }), { detail: { hide: true } })
    .get("/docs/scalar.js", () => new Response(Bun.file(scalarBundle), { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" } }), { detail: { hide: true } });
}
