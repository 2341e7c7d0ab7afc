/**
 * Token counting for upstreams that report no usage (a cut stream, a provider that omits it).
 * gpt-tokenizer takes about a second to load, so it is loaded in the background at start and
 * counting falls back to ~4 characters a token until it is ready.
 */
type Counter = (text: string) => number;

let counter: Counter | null = null;
let loading: Promise<void> | null = null;

export function warmTokenizer(): Promise<void> {
  loading ??= import("gpt-tokenizer")
    .then((m) => {
      counter = m.countTokens;
    })
    .catch(() => {});
  return loading;
}

export function countTokens(text: string): number {
  if (text === "") return 0;
  return counter ? counter(text) : Math.ceil(text.length / 4);
}
