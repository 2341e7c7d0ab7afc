import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, MODEL, post, startHarness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test("responses echo `instructions` exactly as sent, and null when only input carries a system message", async () => {
  const withInstructions = await post(h, "responses", { model: MODEL["openai-chat"], instructions: "Be brief.", input: "hi" });
  expect(((await withInstructions.json()) as any).instructions).toBe("Be brief.");
  const inInput = await post(h, "responses", {
    model: MODEL["openai-chat"],
    input: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "hi" },
    ],
  });
  const body = (await inInput.json()) as any;
  expect(body.instructions).toBeNull();
  expect(h.up.requests.at(-1)!.body.messages[0]).toEqual({ role: "system", content: "Be brief." });
});
