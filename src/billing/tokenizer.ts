/**
 * Token counting for upstreams that report no usage (a cut stream, a provider that omits it).
 * gpt-tokenizer holds about 46 MB once loaded, and most gateways never need it (upstreams
 * report usage), so it is loaded on first use, not at start; the first count waits for it
 * (about a second). Should it fail to load, counting falls back to ~4 characters a token.
 */
type Counter = (text: string) => number;

const approximate: Counter = (text) => Math.ceil(text.length / 4);
let loading: Promise<Counter> | null = null;

function counter(): Promise<Counter> {
  loading ??= import("gpt-tokenizer").then(
    // prompts are data: "<|endoftext|>" in a prompt counts as the text it is, where by default it throws
    (m) => (text) => m.countTokens(text, { disallowedSpecial: new Set() }),
    () => approximate,
  );
  return loading;
}

export async function countTokens(text: string): Promise<number> {
  if (text === "") return 0;
  return (await counter())(text);
}
