import type { MockUpstream } from "../../support/mock-upstream";

/** One model at $100 / 1M prompt tokens and $200 / 1M completion tokens: a request costs about $0.01 to $0.05. */
export const pricedYaml = (url: string) => `
providers:
  - { slug: mock, api: openai-chat, base_url: "${url}", api_key: k }
models:
  - id: test/priced
    context_length: 100000
    endpoints:
      - { provider: mock, model: priced-1, pricing: { prompt: "0.0001", completion: "0.0002" }, max_completion_tokens: 250 }
`;

/** For races: the mock reports prompt tokens no larger than the prompt's bytes, as real tokenizers do, and varied output within max_tokens. */
export function billPromptLength(up: MockUpstream): void {
  up.setHandler((req) => {
    const prompt = String(req.body.messages?.[0]?.content ?? "");
    const input = Math.max(1, Math.floor(prompt.length * 0.8));
    const max = req.body.max_tokens ?? 250;
    const output = 20 + ((prompt.length * 7) % Math.max(1, max - 20));
    return { text: ["x", "y"], usage: { input, output }, delayMs: 15, chunkDelayMs: 5 };
  });
}
