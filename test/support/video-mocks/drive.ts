/** What the lifecycle does with an adapter, reduced to what tests need: poll to the end, fetch the outputs. */
import type { PollOutcome, UpstreamOutput, UpstreamRef, VideoAdapter, VideoRequest, VideoTarget } from "../../../src/videos/adapters/adapter";

export const never = new AbortController().signal;

export async function pollUntilSettled(
  adapter: VideoAdapter,
  target: VideoTarget,
  ref: UpstreamRef,
  maxPolls = 10,
): Promise<{ seen: string[]; last: PollOutcome }> {
  const seen: string[] = [];
  for (let i = 0; i < maxPolls; i++) {
    const outcome = await adapter.poll(target, ref, never);
    seen.push(outcome.kind);
    if (outcome.kind !== "pending" && outcome.kind !== "in_progress") return { seen, last: outcome };
  }
  throw new Error(`not settled after ${maxPolls} polls: ${seen.join(", ")}`);
}

export async function download(output: UpstreamOutput): Promise<{ status: number; bytes: Uint8Array }> {
  const response = await fetch(output.url, { headers: output.headers });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The ref of a submit that must succeed (the test fails naming the outcome otherwise). */
export async function submitOrThrow(adapter: VideoAdapter, target: VideoTarget, request: VideoRequest): Promise<UpstreamRef> {
  const outcome = await adapter.submit(target, request, never);
  if (outcome.kind !== "submitted") throw new Error(`not submitted: ${JSON.stringify(outcome)}`);
  return outcome.ref;
}
