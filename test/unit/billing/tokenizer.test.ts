import { expect, test } from "bun:test";
import { countTokens as encoderCount } from "gpt-tokenizer";
import { countTokens } from "../../../src/billing/tokenizer";

test("counts by gpt-tokenizer; a special token's text in a prompt is counted as text, not refused", async () => {
  expect(await countTokens("The weather in Paris is mild.")).toBe(encoderCount("The weather in Paris is mild."));
  expect(await countTokens("")).toBe(0);
  const special = "read tokenizer.py: it ends a document with <|endoftext|> and <|im_start|>";
  expect(await countTokens(special)).toBe(encoderCount(special, { disallowedSpecial: new Set() }));
  expect(await countTokens(special)).toBeGreaterThan(await countTokens("read tokenizer.py: it ends a document with"));
});
