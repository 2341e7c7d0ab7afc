// A drain hands one generation object to each destination that takes it: what no destination
// changes (content JSON, span ids, compiled filter rules) is made once, and never crosses from one
// generation or destination to another where it must not.
import { expect, test } from "bun:test";
import type { FilterRules, ObservedGeneration } from "../../../../src/observability/contract";
import { spansJson } from "../../../../src/observability/otlp/export-request";
import { webhookProfile } from "../../../../src/observability/otlp/profiles/webhook";
import { compileFilter } from "../../../../src/observability/pipeline/filter-rules";
import { destinationOf, observedGeneration } from "../fixtures";

const webhook = (privacyMode = false) => destinationOf("webhook", { url: "https://hooks.example.com/otlp", method: "POST" }, { privacyMode });

/** messages whose serialisations are counted (JSON.stringify calls toJSON) */
function countedMessages(text: string): { messages: unknown[]; serialised: () => number } {
  let count = 0;
  const messages = [{ role: "user", content: text }];
  Object.defineProperty(messages, "toJSON", { enumerable: false, value: () => (count++, [...messages]) });
  return { messages, serialised: () => count };
}

const withMessages = (g: ObservedGeneration, messages: unknown[], answer = "canary-answer"): ObservedGeneration => ({
  ...g,
  input: { ...g.input!, messages },
  output: { text: answer, toolCalls: [] },
});

test("a generation's prompt is serialised once for three destinations, and each export carries it", () => {
  const { messages, serialised } = countedMessages("canary-prompt-41");
  const g = withMessages(observedGeneration(), messages);
  const exports = [webhook(), webhook(), webhook()].map((d) => spansJson(g, d, webhookProfile));
  expect(serialised()).toBe(1);
  for (const text of exports) expect(text).toContain("canary-prompt-41");
  expect(new Set(exports).size).toBe(1);
});

test("privacy mode still removes the content when another destination took the same generation first, and the other way round", () => {
  const g = withMessages(observedGeneration(), [{ role: "user", content: "canary-prompt-77" }]);
  const [open1, closed1] = [spansJson(g, webhook(), webhookProfile), spansJson(g, webhook(true), webhookProfile)];
  const h = withMessages(observedGeneration({ id: "gen-other" }), [{ role: "user", content: "canary-prompt-78" }], "canary-answer-78");
  const [closed2, open2] = [spansJson(h, webhook(true), webhookProfile), spansJson(h, webhook(), webhookProfile)];
  expect([
    open1.includes("canary-prompt-77"),
    closed1.includes("canary-prompt-77"),
    closed2.includes("canary-prompt-78"),
    open2.includes("canary-prompt-78"),
  ]).toEqual([true, false, false, true]);
  expect([
    open1.includes("canary-answer"),
    closed1.includes("canary-answer"),
    closed2.includes("canary-answer-78"),
    open2.includes("canary-answer-78"),
  ]).toEqual([true, false, false, true]);
});

test("two generation objects never share their content or ids, even with the same id", () => {
  const a = withMessages(observedGeneration(), [{ role: "user", content: "canary-alpha" }]);
  const b = withMessages(observedGeneration(), [{ role: "user", content: "canary-beta" }]);
  const [ta, tb] = [spansJson(a, webhook(), webhookProfile), spansJson(b, webhook(), webhookProfile)];
  expect([ta.includes("canary-alpha"), ta.includes("canary-beta"), tb.includes("canary-beta"), tb.includes("canary-alpha")]).toEqual([
    true,
    false,
    true,
    false,
  ]);
  // the ids are derived from the generation id, so equal ids give equal span ids
  const ids = (text: string) => [...text.matchAll(/"spanId":"([0-9a-f]{16})"/g)].map((m) => m[1]);
  expect(ids(ta)).toEqual(ids(tb));
  const c = observedGeneration({ id: "gen-c" });
  expect(ids(spansJson(c, webhook(), webhookProfile))).not.toEqual(ids(ta));
});

test("a destination's filter rules are compiled once, and the compiled filter judges each generation on its own", () => {
  const rules: FilterRules = { enabled: true, groups: [{ logic: "and", rules: [{ field: "model", operator: "regex", value: "^acme/" }] }] };
  const filter = compileFilter(rules);
  expect(compileFilter(rules)).toBe(filter);
  expect([filter(observedGeneration()), filter(observedGeneration({ model: "other/chat" })), filter(observedGeneration())]).toEqual([true, false, true]);
  // equal rules in another object (a destination read again) compile on their own
  expect(compileFilter(structuredClone(rules))).not.toBe(filter);
});
