import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { UpstreamOutput } from "../adapters/adapter";

/**
 * The gateway's own copy of video outputs: `<data dir>/videos/<job id>/<index>.mp4`. Upstream
 * URLs expire within hours, so outputs are copied at completion and /content is served from here.
 */
export type VideoStorage = { dir: string };

export const videoStorageOf = (dataDir: string): VideoStorage => ({ dir: join(dataDir, "videos") });

const jobDir = (storage: VideoStorage, jobId: string) => join(storage.dir, jobId.replace(/[^A-Za-z0-9_-]/g, "_"));

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
 * Streams one upstream output to disk chunk by chunk (never a whole video in memory), into a
 * temporary file renamed into place once complete, so a half-written file is never served.
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
  const dir = jobDir(storage, jobId);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${index}.mp4`);
  const partial = `${path}.${crypto.randomUUID()}.part`;
  const writer = Bun.file(partial).writer();
  let bytes = 0;
  try {
    for await (const chunk of res.body) {
      bytes += chunk.byteLength;
      writer.write(chunk);
      await writer.flush();
    }
    await writer.end();
  } catch (err) {
    await Promise.resolve(writer.end()).catch(() => undefined);
    await rm(partial, { force: true });
    if (signal.aborted) throw err;
    throw new OutputDownloadError(`downloading output ${index}: ${err instanceof Error ? err.message : String(err)}`, true);
  }
  await rename(partial, path);
  return { path, bytes, contentType: output.contentType ?? "video/mp4" };
}

/** Deletes every stored output of a job (retention). */
export async function deleteOutputs(storage: VideoStorage, jobId: string): Promise<void> {
  await rm(jobDir(storage, jobId), { recursive: true, force: true });
}
