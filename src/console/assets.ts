import { createHash } from "node:crypto";
import { CompressedAsset } from "../http/compressed-asset";
import style from "./assets/console.bundle.css" with { type: "text" };
// the bundle made by scripts/build-console.ts, embedded in the compiled binary as text
import script from "./assets/console.bundle.js" with { type: "text" };

/** A bundled file under a URL named by its content, so browsers may keep it for good. */
export type ConsoleAsset = { url: string; etag: string; body: CompressedAsset };

function asset(name: string, ext: string, text: string, contentType: string): ConsoleAsset {
  const digest = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const etag = `"${digest}"`;
  const body = new CompressedAsset(async () => new TextEncoder().encode(text), {
    "content-type": contentType,
    "cache-control": "public, max-age=31536000, immutable",
    etag,
  });
  return { url: `/console/assets/${name}-${digest}.${ext}`, etag, body };
}

// one per process: every app (tests start many) shares what was compressed
export const consoleScript = asset("console", "js", script, "text/javascript; charset=utf-8");
export const consoleStyle = asset("console", "css", style, "text/css; charset=utf-8");

/** 304 when the browser holds this very file, else the file (gzip or brotli when accepted) */
export function serveAsset(a: ConsoleAsset, request: Request): Promise<Response> | Response {
  const held = request.headers.get("if-none-match");
  if (held !== null && held.split(",").some((tag) => tag.trim().replace(/^W\//, "") === a.etag))
    return new Response(null, { status: 304, headers: { etag: a.etag, "cache-control": "public, max-age=31536000, immutable" } });
  return a.body.respond(request);
}
