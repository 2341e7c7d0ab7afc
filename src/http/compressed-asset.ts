import { promisify } from "node:util";
import { type Encoding, preferredEncoding } from "./accept-encoding";

/** node:zlib, loaded the first time an encoding is made: loading it costs a start-up about 5 ms and 1 MB */
let zlib: Promise<typeof import("node:zlib")> | undefined;
const loadZlib = () => (zlib ??= import("node:zlib"));

const compressors: Record<Encoding, (bytes: Uint8Array) => Promise<Uint8Array>> = {
  // quality 5: the 4.3 MB API reference bundle takes ~0.25 s and shrinks to 1.09 MB; quality 11
  // would save another 150 KB for ~16 s of CPU
  br: async (bytes) => {
    const { brotliCompress, constants } = await loadZlib();
    return promisify(brotliCompress)(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  },
  gzip: async (bytes) => promisify((await loadZlib()).gzip)(bytes, { level: 6 }),
};

/**
 * A static body served gzip- or brotli-encoded when the client accepts it. Each encoding is
 * made once per process, off the event loop, the first time it is wanted (or `prepare`d), so
 * neither start-up nor a deployment that never opens /docs pays for it.
 */
export class CompressedAsset {
  private source: Promise<Uint8Array> | undefined;
  private readonly encoded = new Map<Encoding, Promise<Uint8Array>>();

  constructor(
    private readonly load: () => Promise<Uint8Array>,
    private readonly headers: Record<string, string>,
  ) {}

  private bytes(): Promise<Uint8Array> {
    return (this.source ??= this.load());
  }

  private variant(encoding: Encoding): Promise<Uint8Array> {
    let made = this.encoded.get(encoding);
    if (!made) this.encoded.set(encoding, (made = this.bytes().then(compressors[encoding])));
    return made;
  }

  /** starts making the encoding this request would get, so it is ready when it is asked for */
  prepare(request: Request): void {
    const encoding = preferredEncoding(request.headers.get("accept-encoding"));
    if (encoding) void this.variant(encoding);
  }

  async respond(request: Request): Promise<Response> {
    const encoding = preferredEncoding(request.headers.get("accept-encoding"));
    const headers = { ...this.headers, vary: "Accept-Encoding" };
    // the DOM lib (for the console's pages) types a body as bytes over an ArrayBuffer, which these are
    if (!encoding) return new Response((await this.bytes()) as Uint8Array<ArrayBuffer>, { headers });
    return new Response((await this.variant(encoding)) as Uint8Array<ArrayBuffer>, { headers: { ...headers, "content-encoding": encoding } });
  }
}
