// Child process: the upstream of the many-streams bench (streams.ts). Every streamed answer is
// BENCH_STREAMS_CHUNKS content chunks BENCH_STREAMS_INTERVAL_MS apart, rendered in the format its
// path asks for by the test mock's own renderers (test/support/mock-upstream), so the gateway
// decodes what it decodes in the tests. The events before the first chunk go with it (a client's
// first byte does not wait an interval), and the events after the last go with the last. Each
// stream keeps its own schedule, taken from its start (timers drift; the schedule does not), so
// N streams started at different times stay spread out.
// Its control server's /stats route counts what the measured proxy carried: streams open now
// and at most since the last /stats/reset, events written, streams started and completed.

import { deepenListenBacklog } from "../src/process-limits/listen-backlog";
import type { Format } from "../test/support/mock-upstream/formats";
import { formatForPath } from "../test/support/mock-upstream/formats";
import { encodeSse } from "../test/support/mock-upstream/sse-stream";
import { announceReady, onTerminate } from "./lib/child";
import { envInt } from "./lib/env";
import { REPLY_TOKENS, replyPieces } from "./lib/reply";

const CHUNKS = envInt("BENCH_STREAMS_CHUNKS", 60);
const INTERVAL_MS = envInt("BENCH_STREAMS_INTERVAL_MS", 100);
const PIECES = replyPieces(CHUNKS);

export type UpstreamStats = { open: number; maxOpen: number; events: number; started: number; completed: number; cancelled: number };

const stats: UpstreamStats = { open: 0, maxOpen: 0, events: 0, started: 0, completed: 0, cancelled: 0 };

/** One answer's frames grouped by when they go out: group k at start + k × interval. */
type Schedule = { groups: Uint8Array[]; eventsPerGroup: number[] };

const schedules = new Map<string, Schedule>();

function scheduleFor(format: Format, path: string, body: any): Schedule {
  const key = `${path} ${body?.stream_options?.include_usage === true}`;
  const known = schedules.get(key);
  if (known) return known;
  const events = format.events!({ text: PIECES, usage: { input: 12, output: REPLY_TOKENS } }, { body, model: body?.model ?? "m-stream", created: 1, seq: 1 });
  const first = events.findIndex((e) => e.data.includes(PIECES[0]!));
  if (first < 0) throw new Error(`the ${format.name} renderer did not put the first piece in an event of its own`);
  const encode = format.frame?.encode ?? encodeSse;
  const groupOf = (from: number, to: number) => {
    const bytes = events.slice(from, to).map(encode);
    return { bytes: Buffer.concat(bytes), count: to - from };
  };
  const cuts = [groupOf(0, first + 1)];
  for (let i = 1; i < CHUNKS - 1; i++) cuts.push(groupOf(first + i, first + i + 1));
  cuts.push(groupOf(first + CHUNKS - 1, events.length));
  const schedule = { groups: cuts.map((c) => new Uint8Array(c.bytes)), eventsPerGroup: cuts.map((c) => c.count) };
  schedules.set(key, schedule);
  return schedule;
}

function slowStream(schedule: Schedule): ReadableStream<Uint8Array> {
  const start = performance.now();
  let timer: Timer | undefined;
  let done = false;
  const end = (completed: boolean) => {
    if (done) return;
    done = true;
    stats.open--;
    if (completed) stats.completed++;
    else stats.cancelled++;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (k: number) => {
        if (done) return;
        controller.enqueue(schedule.groups[k]!);
        stats.events += schedule.eventsPerGroup[k]!;
        if (k + 1 === schedule.groups.length) {
          end(true);
          controller.close();
          return;
        }
        timer = setTimeout(() => send(k + 1), Math.max(0, start + (k + 1) * INTERVAL_MS - performance.now()));
      };
      send(0);
    },
    cancel() {
      clearTimeout(timer);
      end(false);
    },
  });
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  async fetch(req) {
    const url = new URL(req.url);
    const format = formatForPath(url.pathname);
    const body = await req.json().catch(() => null);
    if (!format?.events) return Response.json({ error: { message: `no stream at ${url.pathname}` } }, { status: 404 });
    const streams = format.streams ? format.streams(url.pathname) : body?.stream === true;
    if (!streams)
      return Response.json(format.json({ text: PIECES, usage: { input: 12, output: REPLY_TOKENS } }, { body, model: body?.model ?? "m", created: 1, seq: 1 }));
    const schedule = scheduleFor(format, url.pathname, body);
    stats.started++;
    stats.open++;
    if (stats.open > stats.maxOpen) stats.maxOpen = stats.open;
    return new Response(slowStream(schedule), { headers: { "content-type": format.frame?.contentType ?? "text/event-stream" } });
  },
});
// a provider's queue of connections is deep: with Bun's 512 the floor's and the gateway's upstream
// calls were dropped while this process was busy, which is not what either is measured for
deepenListenBacklog(server.port!);
onTerminate(() => server.stop(true));
announceReady(
  { url: `http://127.0.0.1:${server.port}/v1` },
  {
    "/stats": () => ({ ...stats }),
    "/stats/reset": () => {
      stats.maxOpen = stats.open;
      return { ...stats };
    },
  },
);
