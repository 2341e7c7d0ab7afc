/**
 * Job kinds for tests, loaded into the workers' registry through `jobModules` (never part of the
 * gateway). `test.call` reports each attempt to a loopback receiver (job-receiver.ts), which
 * decides how the attempt ends: 2xx succeeded, 429 with Retry-After, 410 permanent, else failed.
 */
import { PermanentFailure, RetryAfter } from "../../src/jobs/job-errors";
import type { JobDeps } from "../../src/jobs/kinds/job-deps";
import type { JobKind } from "../../src/jobs/registry";

export type CallPayload = { url: string /** how long the handler works between start and done */; workMs?: number };

export function jobKinds(_deps: JobDeps): JobKind[] {
  return [
    {
      kind: "test.call",
      maxAttempts: 4,
      async run(payload, { job, signal }) {
        const p = payload as CallPayload;
        const report = (what: string) => fetch(`${p.url}/${what}`, { method: "POST", body: JSON.stringify({ job: job.id, attempt: job.attempts }) });
        const started = await report("start");
        if (started.status === 429) throw new RetryAfter(Number(started.headers.get("retry-after")), "HTTP 429");
        if (started.status === 410) throw new PermanentFailure("HTTP 410");
        if (!started.ok) throw new Error(`HTTP ${started.status}`);
        if (p.workMs) await Bun.sleep(p.workMs);
        if (signal.aborted) throw signal.reason;
        await report("done");
      },
    },
  ];
}
