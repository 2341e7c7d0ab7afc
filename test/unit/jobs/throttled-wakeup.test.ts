import { expect, test } from "bun:test";
import { throttledWakeup } from "../../../src/jobs/throttled-wakeup";

test("the first call wakes at once; calls inside the window fold into one at its end", async () => {
  const at: number[] = [];
  const started = performance.now();
  const wake = throttledWakeup(() => at.push(performance.now() - started), 40);
  wake();
  expect(at).toHaveLength(1);
  for (let i = 0; i < 50; i++) wake();
  expect(at).toHaveLength(1);
  await Bun.sleep(70);
  expect(at).toHaveLength(2);
  expect(at[1]!).toBeGreaterThanOrEqual(35);
  // quiet for longer than the window: at once again
  await Bun.sleep(60);
  wake();
  expect(at).toHaveLength(3);
});

test("a window given as a function is read at each call: zero wakes at once every time, a longer one folds", async () => {
  let windowMs = 0;
  let woken = 0;
  const wake = throttledWakeup(
    () => woken++,
    () => windowMs,
  );
  for (let i = 0; i < 5; i++) wake();
  expect(woken).toBe(5);
  windowMs = 40;
  for (let i = 0; i < 5; i++) wake();
  expect(woken).toBe(5);
  await Bun.sleep(60);
  expect(woken).toBe(6);
});
