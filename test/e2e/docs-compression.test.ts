import { afterAll, beforeAll, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import scalarBundle from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };
import { startTestGateway, type TestGateway } from "../support/gateway";

let gw: TestGateway;
let bundle: Uint8Array;
beforeAll(async () => {
  gw = await startTestGateway();
  bundle = await Bun.file(scalarBundle).bytes();
});
afterAll(() => gw.close());

// decompress: false, or fetch would undo the encoding and drop the header this test checks
const get = (path: string, acceptEncoding: string) => fetch(gw.url + path, { headers: { "accept-encoding": acceptEncoding }, decompress: false });

test("the docs page and its bundle are gzip-encoded when the client asks for gzip", async () => {
  for (const [path, type] of [
    ["/docs", "text/html; charset=utf-8"],
    ["/docs/scalar.js", "text/javascript; charset=utf-8"],
  ] as const) {
    const res = await get(path, "gzip");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(res.headers.get("content-type")).toBe(type);
    const body = new Uint8Array(await res.arrayBuffer());
    if (path === "/docs/scalar.js") {
      expect(body.length).toBeLessThan(bundle.length / 3);
      expect(gunzipSync(body).equals(Buffer.from(bundle))).toBe(true);
    } else expect(gunzipSync(body).toString()).toContain('<script src="/docs/scalar.js"></script>');
  }
});

test("brotli when the client prefers it, the plain bytes when it accepts no encoding", async () => {
  const br = await get("/docs/scalar.js", "gzip, deflate, br, zstd");
  expect(br.headers.get("content-encoding")).toBe("br");
  expect(br.headers.get("vary")).toBe("Accept-Encoding");
  expect(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())).equals(Buffer.from(bundle))).toBe(true);

  for (const accept of ["identity", "gzip;q=0, br;q=0"]) {
    const plain = await get("/docs/scalar.js", accept);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(Buffer.from(await plain.arrayBuffer()).equals(Buffer.from(bundle))).toBe(true);
  }
  const page = await get("/docs", "identity");
  expect(page.headers.get("content-encoding")).toBeNull();
  expect(await page.text()).toStartWith("<!doctype html>");
});
