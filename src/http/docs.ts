import { Elysia } from "elysia";
// Embedded in the compiled binary so /docs works with no internet access.
import scalarBundle from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };
import { CompressedAsset } from "./compressed-asset";

/**
 * The reference alone: Scalar's own hosted services stay off (its "Ask AI" agent chat, "Generate
 * MCP", the developer tools toolbar and the "open in client" button need scalar.com), and no font
 * is fetched from a CDN. Options as @scalar/types' ApiReferenceConfiguration names them.
 */
const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
};

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
      document.getElementById("api-reference").dataset.configuration = JSON.stringify(${JSON.stringify(SCALAR_CONFIGURATION)});
    </script>
    <script src="/docs/scalar.js"></script>
  </body>
</html>`;

// one per process: every app (tests start many) shares what was compressed
const page = new CompressedAsset(async () => new TextEncoder().encode(PAGE), { "content-type": "text/html; charset=utf-8" });
const scalar = new CompressedAsset(() => Bun.file(scalarBundle).bytes(), {
  "content-type": "text/javascript; charset=utf-8",
  "cache-control": "public, max-age=86400",
});

export function docsRoutes() {
  return new Elysia({ name: "docs" })
    .get(
      "/docs",
      ({ request }) => {
        // the browser asks for the bundle right after the page: have it ready by then
        scalar.prepare(request);
        return page.respond(request);
      },
      { detail: { hide: true } },
    )
    .get("/docs/scalar.js", ({ request }) => scalar.respond(request), { detail: { hide: true } });
}
