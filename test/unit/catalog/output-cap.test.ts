import { describe, expect, test } from "bun:test";
import { outputCap } from "../../../src/catalog/output-cap";
import type { ProviderEntry } from "../../../src/catalog/types";
import type { ApiKindName } from "../../../src/config-schema";

const endpoint = (api: ApiKindName, maxCompletionTokens: number | null = null) => ({
  maxCompletionTokens,
  provider: { slug: "p", name: "p", api, baseUrl: "http://127.0.0.1:9/v1", headers: {}, zdr: false, dataCollection: "allow" } satisfies ProviderEntry,
});

describe("outputCap", () => {
  test("the client's limit, else the endpoint's, else none", () => {
    expect(outputCap(endpoint("openai-chat", 4096), 50)).toBe(50);
    expect(outputCap(endpoint("openai-chat", 4096), undefined)).toBe(4096);
    expect(outputCap(endpoint("openai-responses"), undefined)).toBeUndefined();
  });

  test("never under the minimum of the endpoint's API: Responses 16, Messages and Chat 1", () => {
    const cases: Array<[ApiKindName, number, number]> = [
      ["openai-responses", 5, 16],
      ["openai-responses", 15, 16],
      ["openai-responses", 16, 16],
      ["openai-responses", 17, 17],
      ["anthropic-messages", 0, 1],
      ["anthropic-messages", 5, 5],
      ["openai-chat", 0, 1],
      ["openai-chat", 5, 5],
    ];
    for (const [api, requested, sent] of cases) expect([api, requested, outputCap(endpoint(api), requested)]).toEqual([api, requested, sent]);
    // an endpoint maximum under the API's minimum is raised as well
    expect(outputCap(endpoint("openai-responses", 8), undefined)).toBe(16);
  });
});
