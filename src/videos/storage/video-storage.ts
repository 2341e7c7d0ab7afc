import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Config, S3StorageConfig } from "../../config";
import type { UpstreamOutput } from "../adapters/adapter";

/** An inclusive byte range, as HTTP Range spells it. */
export type ByteRange = { start: number; end: number };

/**
 * A stored output found by its location: its size, and its bytes (all or one range) as a body:
 * a local file slice (Bun sends it with sendfile and its Content-Length) or a stream.
 */
export type StoredObject = { size: number; body(range?: ByteRange): Blob | ReadableStream<Uint8Array> };

/**
 * The gateway's own copy of video outputs. Upstream URLs expire within hours, so outputs are
 * copied at completion and /content is served from here: a folder under the data directory
 * (`<data dir>/videos/<job id>/<index>.mp4`) or, with `storage.s3`, an S3-compatible bucket.
 * A location is what `write` returned and the job record keeps (`path`).
 */
export interface VideoStorage {
  /** Streams `body` into the output `index` of a job (never whole in memory); nothing is readable until it is complete. */
  write(jobId: string, index: number, body: ReadableStream<Uint8Array>, contentType: string): Promise<{ location: string; bytes: number }>;
  /** null when nothing is stored there (deleted, or written by another storage) */
  open(location: string): Promise<StoredObject | null>;
  /** Deletes every stored output of a job (retention); `locations` are those its record keeps. */
  deleteJob(jobId: string, locations: readonly string[]): Promise<void>;
}

const safeJobId = (jobId: string) => jobId.replace(/[^A-Za-z0-9_-]/g, "_");

/** A folder: a temporary file renamed into place once complete, so a half-written file is never served. */
export function localVideoStorage(dir: string): VideoStorage {
  return {
    async write(jobId, index, body) {
      const jobDir = join(dir, safeJobId(jobId));
      await mkdir(jobDir, { recursive: true });
      const path = join(jobDir, `${index}.mp4`);
      const partial = `${path}.${crypto.randomUUID()}.part`;
      const writer = Bun.file(partial).writer();
      let bytes = 0;
      try {
        for await (const chunk of body) {
          bytes += chunk.byteLength;
          writer.write(chunk);
          await writer.flush();
        }
        await writer.end();
      } catch (err) {
        await Promise.resolve(writer.end()).catch(() => undefined);
        await rm(partial, { force: true });
        throw err;
      }
      await rename(partial, path);
      return { location: path, bytes };
    },
    async open(location) {
      if (location.startsWith("s3://")) return null;
      const file = Bun.file(location);
      if (!(await file.exists())) return null;
      return { size: file.size, body: (r) => (r ? file.slice(r.start, r.end + 1) : file) };
    },
    async deleteJob(jobId) {
      await rm(join(dir, safeJobId(jobId)), { recursive: true, force: true });
    },
  };
}

/**
 * An S3-compatible bucket through Bun.S3Client: uploads stream through its multipart writer
 * (parts of 5 MiB, so memory stays bounded). Locations are `s3://<bucket>/<key>`; the object only
 * appears once the upload completes. Downloads are served from a copy in `cacheDir`, made on the
 * first download (streamed to disk): Bun 1.4 sends any streamed body chunked, without the
 * Content-Length clients need (oven-sh/bun#10507), while a file goes out with its length and its
 * ranges. Every download still asks the bucket first, so nothing is served once the object is gone.
 */
export function s3VideoStorage(s3: S3StorageConfig, cacheDir: string): VideoStorage {
  const client = new Bun.S3Client({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
  const origin = `s3://${s3.bucket}/`;
  const keyOf = (location: string) => (location.startsWith(origin) ? location.slice(origin.length) : null);
  const cachePathOf = (key: string) => join(cacheDir, `${new Bun.CryptoHasher("sha256").update(key).digest("hex")}.mp4`);
  // one copy at a time per object: concurrent first downloads wait for the same one
  const copying = new Map<string, Promise<Blob>>();
  async function cached(key: string, size: number, stream: () => ReadableStream<Uint8Array>): Promise<Blob> {
    const path = cachePathOf(key);
    const existing = Bun.file(path);
    if ((await existing.exists()) && existing.size === size) return existing;
    let pending = copying.get(key);
    if (!pending) {
      pending = (async () => {
        await mkdir(cacheDir, { recursive: true });
        const partial = `${path}.${crypto.randomUUID()}.part`;
        try {
          await Bun.write(partial, new Response(stream()));
          await rename(partial, path);
        } finally {
          await rm(partial, { force: true });
        }
        return Bun.file(path);
      })().finally(() => copying.delete(key));
      copying.set(key, pending);
    }
    return pending;
  }
  return {
    async write(jobId, index, body, contentType) {
      const key = `${s3.prefix}${safeJobId(jobId)}/${index}.mp4`;
      const writer = client.file(key).writer({ type: contentType });
      let bytes = 0;
      try {
        for await (const chunk of body) {
          bytes += chunk.byteLength;
          // a pending write is the bucket pushing back
          await writer.write(chunk);
        }
        await writer.end();
      } catch (err) {
        await Promise.resolve(writer.end(err instanceof Error ? err : new Error(String(err)))).catch(() => undefined);
        throw err;
      }
      return { location: origin + key, bytes };
    },
    async open(location) {
      const key = keyOf(location);
      if (key === null) return null;
      const file = client.file(key);
      let size: number;
      try {
        size = (await file.stat()).size;
      } catch (err) {
        if ((err as { code?: string }).code === "NoSuchKey" || /not ?found|NoSuchKey|404/i.test(String((err as Error).message))) return null;
        throw err;
      }
      const copy = await cached(key, size, () => file.stream());
      return { size, body: (r) => (r ? copy.slice(r.start, r.end + 1) : copy) };
    },
    async deleteJob(_jobId, locations) {
      for (const location of locations) {
        const key = keyOf(location);
        if (key === null) continue;
        await client.delete(key);
        await rm(cachePathOf(key), { force: true });
      }
    },
  };
}

const storages = new WeakMap<object, VideoStorage>();

/** The storage the config names: `storage.s3` when set, otherwise `<data dir>/videos` (one per config). */
export function videoStorageOf(config: Pick<Config, "dataDir" | "storage">): VideoStorage {
  let storage = storages.get(config);
  if (!storage) {
    storage = config.storage.s3 ? s3VideoStorage(config.storage.s3, join(config.dataDir, "videos-cache")) : localVideoStorage(join(config.dataDir, "videos"));
    storages.set(config, storage);
  }
  return storage;
}

export type StoredOutput = { path: string; bytes: number; contentType: string };

/** A download that failed in a way a later attempt may not (network, 429, 5xx) or may (4xx: the asset is gone). */
export class OutputDownloadError extends Error {
  override name = "OutputDownloadError";
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/**
 * Streams one upstream output into the storage chunk by chunk (never a whole video in memory).
 * The URL comes from the operator's provider, not from an API caller.
 */
export async function storeOutput(storage: VideoStorage, jobId: string, index: number, output: UpstreamOutput, signal: AbortSignal): Promise<StoredOutput> {
  let res: Response;
  try {
    res = await fetch(output.url, { headers: output.headers, signal });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new OutputDownloadError(`downloading output ${index}: ${err instanceof Error ? err.message : String(err)}`, true);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    throw new OutputDownloadError(`downloading output ${index}: HTTP ${res.status}`, res.status === 429 || res.status === 408 || res.status >= 500);
  }
  const contentType = output.contentType ?? "video/mp4";
  try {
    const { location, bytes } = await storage.write(jobId, index, res.body, contentType);
    return { path: location, bytes, contentType };
  } catch (err) {
    if (signal.aborted) throw err;
    throw new OutputDownloadError(`downloading output ${index}: ${err instanceof Error ? err.message : String(err)}`, true);
  }
}

/** Deletes every stored output of a job (retention). */
export async function deleteOutputs(storage: VideoStorage, jobId: string, locations: readonly string[]): Promise<void> {
  await storage.deleteJob(jobId, locations);
}
