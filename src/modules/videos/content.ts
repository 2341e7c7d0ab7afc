import type { AppContext } from "../../app-context";
import { badRequest, GatewayError, notFound } from "../../errors";
import type { Principal } from "../../http/principal";
import { type ByteRange, videoStorageOf } from "../../videos/storage/video-storage";
import { ownVideoJob } from "./service";

/** One `bytes=` range of a file of `size` bytes (the only form players send); null when unsatisfiable. */
export function parseRange(header: string, size: number): ByteRange | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0 ? null : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start >= size || end < start ? null : { start, end };
}

/**
 * GET /videos/{jobId}/content: streams a stored output from the video storage (never read whole), the whole
 * file or one Range. 400 before completion, 404 for an index past the outputs, 410 once expired.
 */
export async function videoContent(ctx: AppContext, principal: Principal, jobId: string, index: number, rangeHeader: string | null): Promise<Response> {
  const job = await ownVideoJob(ctx, principal, jobId);
  if (job.status === "expired") throw new GatewayError(410, `The outputs of video job ${jobId} have expired and were deleted`);
  if (job.status !== "completed")
    throw badRequest(`Video job ${jobId} is ${job.status}; its content is available once it is completed`, { status: job.status });
  const output = job.outputs.find((o) => o.index === index);
  if (!output) throw notFound(`Video job ${jobId} has ${job.outputs.length} output${job.outputs.length === 1 ? "" : "s"}; index ${index} is out of range`);
  const file = await videoStorageOf(ctx.config).open(output.path);
  if (!file) throw new GatewayError(410, `The outputs of video job ${jobId} are no longer stored`);
  const size = file.size;
  const headers: Record<string, string> = { "Content-Type": output.contentType, "Accept-Ranges": "bytes" };
  if (rangeHeader === null) return new Response(file.body(), { status: 200, headers: { ...headers, "Content-Length": String(size) } });
  const range = parseRange(rangeHeader, size);
  if (!range) return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  return new Response(file.body(range), {
    status: 206,
    headers: { ...headers, "Content-Length": String(range.end - range.start + 1), "Content-Range": `bytes ${range.start}-${range.end}/${size}` },
  });
}
