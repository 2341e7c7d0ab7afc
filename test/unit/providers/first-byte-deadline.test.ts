// The signal an upstream call runs under: the client's abort and the first-byte deadline both
// reach it, each with its own reason; meeting the deadline leaves the client's abort in force.
import { expect, test } from "bun:test";
import { firstByteDeadline } from "../../../src/providers/first-byte-deadline";

test("the deadline aborts with a TimeoutError and says it timed out", async () => {
  const deadline = firstByteDeadline(new AbortController().signal, 20);
  expect(deadline.signal.aborted).toBe(false);
  await Bun.sleep(60);
  expect(deadline.signal.aborted).toBe(true);
  expect((deadline.signal.reason as DOMException).name).toBe("TimeoutError");
  expect(deadline.timedOut()).toBe(true);
});

test("met() stops the deadline, and the client's abort still reaches the call", async () => {
  const client = new AbortController();
  const deadline = firstByteDeadline(client.signal, 20);
  deadline.met();
  await Bun.sleep(60);
  expect(deadline.signal.aborted).toBe(false);
  const reason = new DOMException("the client went away", "AbortError");
  client.abort(reason);
  expect(deadline.signal.aborted).toBe(true);
  expect(deadline.signal.reason).toBe(reason);
  expect(deadline.timedOut()).toBe(false);
});

test("a client already gone gives a signal already aborted, with the client's reason", () => {
  const client = new AbortController();
  client.abort("gone");
  const deadline = firstByteDeadline(client.signal, 10_000);
  expect(deadline.signal.aborted).toBe(true);
  expect(deadline.signal.reason).toBe("gone");
  deadline.met();
});
