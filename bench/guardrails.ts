// The cost of guardrail content filters on the request path: every built-in preset, one redact
// filter each, over prompts of 1 KB to 1 MB (prose with numbers, plus a few matches to redact),
// in microseconds per KB of prompt; the goal is at most 50 µs/KB. Not a test: it prints and exits 0.
import { BUILTIN_SLUGS } from "../src/gateway/guardrails/builtins";
import { combineFilters, screenText } from "../src/gateway/guardrails/content-filter";

const GOAL_US_PER_KB = 50;
const filters = combineFilters(
  BUILTIN_SLUGS.map((slug) => ({ slug, action: "redact" as const })),
  [],
)!;

const SENTENCE =
  "In 2024 we shipped version 3.2 to 120 customers across 14 countries; revenue grew 15% and support tickets fell from 310 to 95 per week, said the team. ";
const MATCHES = " Contact jane.doe@example.com or (415) 555-2671, card 4111 1111 1111 1111, host 10.0.0.12. ";

function prompt(bytes: number): string {
  let text = "";
  while (text.length < bytes) text += text.length % 4096 < SENTENCE.length ? MATCHES : SENTENCE;
  return text.slice(0, bytes);
}

console.log("guardrail content filters, every built-in preset on (redact)");
console.log("prompt     µs/KB   goal        ");
for (const kb of [1, 16, 256, 1024]) {
  const text = prompt(kb * 1024);
  const rounds = Math.max(5, Math.round(2000 / kb));
  for (let i = 0; i < rounds; i++) screenText(filters, text, true);
  const started = performance.now();
  for (let i = 0; i < rounds; i++) screenText(filters, text, true);
  const usPerKb = ((performance.now() - started) * 1000) / rounds / kb;
  console.log(`${`${kb} KB`.padEnd(10)} ${usPerKb.toFixed(2).padStart(6)}   ≤ ${GOAL_US_PER_KB}  ${usPerKb <= GOAL_US_PER_KB ? "PASS" : "FAIL"}`);
}
