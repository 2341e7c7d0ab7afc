/**
 * A multipart/form-data body written as a stream of the parts' bytes (RFC 7578): the file's
 * chunks go out as they are held, never copied into one buffer, so an upload sent upstream costs
 * no second copy of its size (fetch would serialise a FormData whole first). Each call of
 * `stream()` makes a fresh stream, for each endpoint tried.
 */
export type MultipartBody = { contentType: string; length: number; stream(): ReadableStream<Uint8Array> };

export type MultipartFile = { field: string; name: string; type: string; chunks: readonly Uint8Array[] };

const encoder = new TextEncoder();

/** A name or file name in a Content-Disposition header, escaped as the HTML form encoding does. */
const quoted = (s: string) => s.replaceAll('"', "%22").replaceAll("\r", "%0D").replaceAll("\n", "%0A");

/** The largest piece enqueued at once: a chunk bigger than this goes out in slices. */
const PIECE = 256 * 1024;

export function multipartBody(file: MultipartFile, fields: ReadonlyArray<readonly [string, string]>): MultipartBody {
  const boundary = `----gateway-${crypto.randomUUID().replaceAll("-", "")}`;
  const parts: Uint8Array[] = [
    encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.name)}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    ...file.chunks,
    encoder.encode(
      `\r\n${fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`).join("")}--${boundary}--\r\n`,
    ),
  ];
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: parts.reduce((n, p) => n + p.byteLength, 0),
    stream() {
      let part = 0;
      let offset = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          const current = parts[part];
          if (!current) return controller.close();
          const piece = current.subarray(offset, offset + PIECE);
          offset += piece.byteLength;
          if (offset >= current.byteLength) {
            part++;
            offset = 0;
          }
          controller.enqueue(piece);
        },
      });
    },
  };
}
