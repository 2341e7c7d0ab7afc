// The job worker's own circuits: after routing.circuit_failures transient create failures of the
// first endpoint its circuit is open, so the next job is submitted to the second endpoint first and
// the first is not called at all.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { runVeoJob, startTwoEndpointHarness, type TwoEndpointHarness } from "./setup";

let h: TwoEndpointHarness;
beforeAll(async () => {
  h = await startTwoEndpointHarness("routing: { circuit_failures: 2, circuit_cooldown_ms: 600000 }");
});
afterAll(() => h.close());

const requests = () => ({ openai: h.openai.creates.length, replicate: h.replicate.predictions.size });

test("two transient failures of the first endpoint open its circuit: the next job goes to the second first", async () => {
  // one 503 per job: each of the first two jobs falls over to Replicate, and the first endpoint's run of failures grows
  h.openai.createErrors = [503, 503];
  for (const n of [1, 2]) {
    expect(await runVeoJob(h)).toMatchObject({ status: "completed", usage: { cost: 3.2 } });
    expect(requests()).toEqual({ openai: n, replicate: n });
  }
  expect(h.openai.createErrors).toEqual([]);
  // the circuit is open: the third job is submitted to Replicate, and the first endpoint is not called
  expect(await runVeoJob(h)).toMatchObject({ status: "completed", usage: { cost: 3.2 } });
  expect(requests()).toEqual({ openai: 2, replicate: 3 });
});
