/**
 * The loopback receiver of `test.call` jobs: counts attempts, completions and how many
 * attempts of one job ran at the same time, and answers each attempt as `answer` says.
 */
export type JobReceiver = {
  url: string;
  /** attempts by job, with their times (ms since the epoch) */
  starts: Map<string, number[]>;
  /** completions by job (an at-least-once handler may complete twice) */
  done: Map<string, number>;
  /** the most attempts of one job in progress at once, over all jobs */
  maxConcurrentSameJob(): number;
  /** attempts of any job in progress now */
  active(): number;
  stop(): void;
};

export function startJobReceiver(answer: (job: string, attempt: number) => Response = () => new Response(null, { status: 204 })): JobReceiver {
  const starts = new Map<string, number[]>();
  const done = new Map<string, number>();
  const inProgress = new Map<string, number>();
  let maxSame = 0;
  let active = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const { job, attempt } = (await req.json()) as { job: string; attempt: number };
      const path = new URL(req.url).pathname;
      if (path === "/start") {
        starts.set(job, [...(starts.get(job) ?? []), Date.now()]);
        const res = answer(job, attempt);
        if (res.ok) {
          const n = (inProgress.get(job) ?? 0) + 1;
          inProgress.set(job, n);
          maxSame = Math.max(maxSame, n);
          active++;
        }
        return res;
      }
      inProgress.set(job, (inProgress.get(job) ?? 1) - 1);
      active--;
      done.set(job, (done.get(job) ?? 0) + 1);
      return new Response(null, { status: 204 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    starts,
    done,
    maxConcurrentSameJob: () => maxSame,
    active: () => active,
    stop: () => void server.stop(true),
  };
}
