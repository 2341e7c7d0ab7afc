// A tiny S3-compatible server on loopback (path style, /<bucket>/<key>): PUT, multipart upload
// (CreateMultipartUpload, UploadPart, CompleteMultipartUpload, Abort), GET with Range, HEAD,
// DELETE. Signatures are not verified; each request's Authorization scheme is recorded.

export type S3Mock = {
  url: string;
  /** completed objects by "<bucket>/<key>" */
  objects: Map<string, { bytes: Uint8Array; contentType: string }>;
  /** "<METHOD> <path>?<query>" with the Authorization scheme ("AWS4-HMAC-SHA256" or null) */
  requests: Array<{ line: string; auth: string | null }>;
  stop(): void;
};

const xml = (body: string, status = 200) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, { status, headers: { "Content-Type": "application/xml" } });
const noSuchKey = (key: string) => xml(`<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>${key}</Key></Error>`, 404);
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};

export function startS3Mock(): S3Mock {
  const objects: S3Mock["objects"] = new Map();
  const requests: S3Mock["requests"] = [];
  const uploads = new Map<string, { name: string; contentType: string; parts: Map<number, Uint8Array> }>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const name = decodeURIComponent(url.pathname.slice(1));
      const key = name.slice(name.indexOf("/") + 1);
      requests.push({
        line: `${req.method} ${url.pathname}${url.search}`,
        auth: /^AWS4-HMAC-SHA256 /.exec(req.headers.get("authorization") ?? "")?.[0].trim() ?? null,
      });
      const q = url.searchParams;
      if (req.method === "POST" && q.has("uploads")) {
        const id = crypto.randomUUID();
        uploads.set(id, { name, contentType: req.headers.get("content-type") ?? "application/octet-stream", parts: new Map() });
        return xml(
          `<InitiateMultipartUploadResult><Bucket>${name.split("/")[0]}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
        );
      }
      const uploadId = q.get("uploadId");
      if (uploadId !== null) {
        const upload = uploads.get(uploadId);
        if (!upload) return xml(`<Error><Code>NoSuchUpload</Code></Error>`, 404);
        if (req.method === "PUT") {
          const part = Number(q.get("partNumber"));
          upload.parts.set(part, new Uint8Array(await req.arrayBuffer()));
          return new Response(null, { headers: { ETag: `"part-${part}"` } });
        }
        if (req.method === "POST") {
          await req.text();
          const sorted = [...upload.parts.entries()].sort(([a], [b]) => a - b).map(([, p]) => p);
          objects.set(upload.name, { bytes: concat(sorted), contentType: upload.contentType });
          uploads.delete(uploadId);
          return xml(
            `<CompleteMultipartUploadResult><Bucket>${name.split("/")[0]}</Bucket><Key>${key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`,
          );
        }
        if (req.method === "DELETE") {
          uploads.delete(uploadId);
          return new Response(null, { status: 204 });
        }
      }
      if (req.method === "PUT") {
        objects.set(name, { bytes: new Uint8Array(await req.arrayBuffer()), contentType: req.headers.get("content-type") ?? "application/octet-stream" });
        return new Response(null, { headers: { ETag: '"put"' } });
      }
      if (req.method === "DELETE") {
        objects.delete(name);
        return new Response(null, { status: 204 });
      }
      const object = objects.get(name);
      if (req.method === "HEAD" || req.method === "GET") {
        if (!object) return req.method === "HEAD" ? new Response(null, { status: 404 }) : noSuchKey(key);
        const size = object.bytes.byteLength;
        const headers = { "Content-Type": object.contentType, ETag: '"etag"', "Last-Modified": new Date(0).toUTCString(), "Accept-Ranges": "bytes" };
        if (req.method === "HEAD") return new Response(null, { headers: { ...headers, "Content-Length": String(size) } });
        const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.get("range") ?? "");
        if (!m) return new Response(object.bytes as Uint8Array<ArrayBuffer>, { headers });
        const start = Number(m[1]);
        const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
        return new Response(object.bytes.slice(start, end + 1), { status: 206, headers: { ...headers, "Content-Range": `bytes ${start}-${end}/${size}` } });
      }
      return xml(`<Error><Code>NotImplemented</Code></Error>`, 501);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, objects, requests, stop: () => server.stop(true) };
}
