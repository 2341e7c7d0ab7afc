// The job workers start after the gateway listens (src/server.ts): the first answers do not wait
// for them or share the CPU with their start, a job enqueued meanwhile still runs at once when
// they come up (poll_seconds is 5 here: the runner looks at the queue as it starts), a stop
// before then starts none, and one that cannot start is reported, naming the worker.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { type JobReceiver, startJobReceiver } from "../../support/job-receiver";
import { until } from "../../support/until";

const JOB_KINDS = new URL("../../support/job-kinds.ts", import.meta.url).href;
const YAML = "jobs:\n  poll_seconds: 5\n";

let gw: TestGateway | undefined;
let receiver: JobReceiver | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await gw?.close();
  gw = undefined;
  receiver?.stop();
  receiver = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** whether `promise` has settled by now (a microtask turn later) */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol();
  const first = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    Promise.resolve(marker),
  ]);
  return first !== marker;
}

test("the gateway answers before its job workers start; a job enqueued meanwhile runs as soon as they do", async () => {
  receiver = startJobReceiver(() => new Response(null, { status: 204 }));
  const started = performance.now();
  gw = await startTestGateway({ yaml: YAML, env: { WORKERS: "1" }, jobModules: [JOB_KINDS] });
  expect((await fetch(`${gw.url}/ready`)).status).toBe(200);
  expect(await settled(gw.jobWorkersStarted)).toBe(false);

  const now = Date.now();
  await gw.ctx.store.jobs.enqueue({ id: "early", kind: "test.call", payload: { url: receiver.url }, runAt: now, now });
  await gw.jobWorkersStarted;
  await until("the early job done", async () => ((await gw!.ctx.store.jobs.get("early"))?.state === "done" ? true : undefined), 3000);
  expect(receiver.done.get("early")).toBe(1);
  // the workers' start (200 ms after listening) and the job, well before the 5 s poll
  expect(performance.now() - started).toBeLessThan(3000);
});

test("a stop before the job workers start starts none", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-worker-start-"));
  dirs.push(dir);
  const marker = join(dir, "loaded");
  // a job module that leaves a file behind when a worker thread loads it (the main thread loads it too)
  const module = join(dir, "marking-kinds.ts");
  writeFileSync(
    module,
    `import { writeFileSync } from "node:fs";\nif (!Bun.isMainThread) writeFileSync(${JSON.stringify(marker)}, "x");\nexport const jobKinds = () => [];\n`,
  );
  gw = await startTestGateway({ yaml: YAML, env: { WORKERS: "1" }, jobModules: [module] });
  await gw.close();
  gw = undefined;
  await Bun.sleep(600);
  expect(await Bun.file(marker).exists()).toBe(false);
});

test("a job worker that cannot start: jobWorkersStarted rejects naming it, and the gateway keeps answering", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-worker-start-"));
  dirs.push(dir);
  const module = join(dir, "broken-kinds.ts");
  writeFileSync(module, `if (!Bun.isMainThread) throw new Error("this module cannot load");\nexport const jobKinds = () => [];\n`);
  gw = await startTestGateway({ yaml: YAML, env: { WORKERS: "1" }, jobModules: [module] });
  const failure = await gw.jobWorkersStarted.then(
    () => "started",
    (err: Error) => err.message,
  );
  expect(failure).toStartWith("job worker 0 could not start: ");
  expect(failure).toContain("this module cannot load");
  expect((await fetch(`${gw.url}/ready`)).status).toBe(200);
});
