// The Azure OpenAI side of the mock upstream, proven with the openai package's AzureOpenAI client
// before any gateway test trusts it: deployment paths, api-version and api-key, Azure's key order
// and content-filter extras, its stream's opening filter chunk, embeddings and error bodies.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { type APIError, AzureOpenAI } from "openai";
import { azureContentFilterError } from "./mock-upstream/render-azure.ts";
import { type MockTurn, type MockUpstream, startMockUpstream } from "./mock-upstream.ts";

let up: MockUpstream;
let azure: AzureOpenAI;
const VERSION = "2024-10-21";

beforeAll(async () => {
  up = await startMockUpstream();
  azure = new AzureOpenAI({ endpoint: `http://127.0.0.1:${up.port}`, apiKey: "az-key-1", apiVersion: VERSION, maxRetries: 0 });
});
afterEach(() => up.reset());
afterAll(() => up.stop());

const SAFE = { filtered: false, severity: "safe" };
const SAFE_RESULTS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };

const toolTurn: MockTurn = {
  id: "chatcmpl-az1",
  text: ["Let me ", "check."],
  toolCalls: [{ id: "call_a", name: "get_weather", arguments: ['{"ci', 'ty":"Paris"}'] }],
  usage: { input: 100, output: 20, cached: 30, reasoning: 7 },
};

describe("chat completions on a deployment", () => {
  test("JSON: the SDK's deployment path, api-version and api-key; Azure's filter results beside the answer", async () => {
    up.enqueue(toolTurn);
    const r = await azure.chat.completions.create({ model: "gpt4o-prod", messages: [{ role: "user", content: "hi" }] });
    const sent = up.requests[0]!;
    expect(sent.path).toBe(`/openai/deployments/gpt4o-prod/chat/completions?api-version=${VERSION}`);
    expect(sent.headers["api-key"]).toBe("az-key-1");
    expect(sent.headers.authorization).toBeUndefined();
    expect(r.id).toBe("chatcmpl-az1");
    expect(r.choices[0]!.message.content).toBe("Let me check.");
    expect(r.choices[0]!.message.tool_calls).toEqual([{ id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }]);
    expect(r.choices[0]!.finish_reason).toBe("tool_calls");
    expect((r.choices[0] as any).content_filter_results).toEqual(SAFE_RESULTS);
    expect((r as any).prompt_filter_results).toEqual([
      { prompt_index: 0, content_filter_results: { ...SAFE_RESULTS, jailbreak: { filtered: false, detected: false } } },
    ]);
    expect(r.usage).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      prompt_tokens_details: { cached_tokens: 30 },
      completion_tokens_details: { reasoning_tokens: 7 },
    });
    // Azure sorts every object's keys
    expect(Object.keys(r)).toEqual(["choices", "created", "id", "model", "object", "prompt_filter_results", "system_fingerprint", "usage"]);
  });

  test("stream: the opening chunk holds only the prompt's filter results; the SDK's stream helper still builds the answer", async () => {
    up.enqueue(toolTurn);
    const stream = await azure.chat.completions.create({
      model: "gpt4o-prod",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: any[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0]).toEqual({
      choices: [],
      created: 0,
      id: "",
      model: "",
      object: "",
      prompt_filter_results: [{ prompt_index: 0, content_filter_results: { ...SAFE_RESULTS, jailbreak: { filtered: false, detected: false } } }],
    });
    expect(chunks[1]!.choices[0]).toMatchObject({ content_filter_results: {}, delta: { role: "assistant", content: "" } });
    expect([Object.keys(chunks[1]!), Object.keys(chunks[1]!.choices[0]), Object.keys(chunks[1]!.choices[0].delta)]).toEqual([
      ["choices", "created", "id", "model", "object", "system_fingerprint", "usage"],
      ["content_filter_results", "delta", "finish_reason", "index", "logprobs"],
      ["content", "refusal", "role"],
    ]);
    expect(chunks[2]!.choices[0]).toMatchObject({ content_filter_results: SAFE_RESULTS, delta: { content: "Let me " } });
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 20 });

    up.enqueue(toolTurn);
    const helper = azure.chat.completions.stream({ model: "gpt4o-prod", messages: [{ role: "user", content: "hi" }] });
    const final = await helper.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe("Let me check.");
    expect(final.choices[0]!.message.tool_calls![0]!).toMatchObject({ id: "call_a", function: { name: "get_weather", arguments: '{"city":"Paris"}' } });
  });

  test("an answer the completion filter stopped: finish_reason content_filter, the category filtered", async () => {
    up.enqueue({ text: "Partial", finish: "content_filter" });
    const r = await azure.chat.completions.create({ model: "gpt4o-prod", messages: [{ role: "user", content: "hi" }] });
    expect(r.choices[0]!.finish_reason).toBe("content_filter");
    expect((r.choices[0] as any).content_filter_results.violence).toEqual({ filtered: true, severity: "medium" });

    up.enqueue({ text: "Partial", finish: "content_filter" });
    const chunks: any[] = [];
    for await (const c of await azure.chat.completions.create({ model: "gpt4o-prod", messages: [{ role: "user", content: "hi" }], stream: true }))
      chunks.push(c);
    const last = chunks.at(-1)!.choices[0];
    expect([last.finish_reason, last.content_filter_results.violence]).toEqual(["content_filter", { filtered: true, severity: "medium" }]);
  });
});

describe("a reasoning deployment", () => {
  test("reasoning is counted in usage, its text never sent, JSON or stream", async () => {
    const turn: MockTurn = { reasoning: { text: "Hidden plan." }, text: "Answer", usage: { input: 5, output: 30, reasoning: 24 } };
    up.enqueue(turn, turn);
    const r = await azure.chat.completions.create({ model: "o3-prod", messages: [{ role: "user", content: "hi" }] });
    expect(r.choices[0]!.message).toEqual({ annotations: [], content: "Answer", refusal: null, role: "assistant" });
    expect(r.usage!.completion_tokens_details!.reasoning_tokens).toBe(24);
    const chunks: any[] = [];
    for await (const c of await azure.chat.completions.create({ model: "o3-prod", messages: [{ role: "user", content: "hi" }], stream: true })) chunks.push(c);
    expect(JSON.stringify(chunks)).not.toContain("Hidden plan.");
  });
});

describe("embeddings on a deployment", () => {
  test("the SDK's default base64 vectors decode to the mock's floats", async () => {
    up.enqueue({ usage: { input: 6, output: 0 } });
    const r = await azure.embeddings.create({ model: "embed-prod", input: ["a", "b"] });
    expect(up.requests[0]!.path).toBe(`/openai/deployments/embed-prod/embeddings?api-version=${VERSION}`);
    expect(up.requests[0]!.headers["api-key"]).toBe("az-key-1");
    expect(r.data.map((d) => d.embedding)).toEqual([
      [0.5, 0.25, -0.125],
      [1.5, 0.25, -0.125],
    ]);
    expect(r.usage.prompt_tokens).toBe(6);
  });
});

describe("errors as Azure sends them", () => {
  const call = () => azure.chat.completions.create({ model: "gpt4o-prod", messages: [{ role: "user", content: "hi" }] });
  const caught = async (): Promise<APIError> => {
    try {
      await call();
    } catch (err) {
      return err as APIError;
    }
    throw new Error("expected an error");
  };

  test("429 with Azure's body and both retry headers", async () => {
    up.enqueue({ status: 429, headers: { "retry-after": "1", "retry-after-ms": "800" } });
    const err = await caught();
    expect([err.status, err.code, err.headers?.get("retry-after-ms")]).toEqual([429, "429", "800"]);
    expect(err.message).toContain("exceeded token rate limit");
  });

  test("a prompt the content filter flags: 400 with code content_filter and the filtered categories", async () => {
    up.enqueue({ status: 400, errorBody: azureContentFilterError(["violence", "jailbreak"]) });
    const err = await caught();
    expect([err.status, err.code, err.param]).toEqual([400, "content_filter", "prompt"]);
    expect((err.error as any).innererror.content_filter_result.jailbreak).toEqual({ filtered: true, detected: true });
  });

  test("no api-version is 404 and no key is 401, before any turn is taken", async () => {
    up.enqueue({ text: "kept for later" });
    const base = `http://127.0.0.1:${up.port}/openai/deployments/gpt4o-prod/chat/completions`;
    const noVersion = await fetch(base, { method: "POST", headers: { "api-key": "k" }, body: "{}" });
    expect([noVersion.status, await noVersion.json()]).toEqual([404, { error: { code: "404", message: "Resource not found" } }]);
    const noKey = await fetch(`${base}?api-version=${VERSION}`, { method: "POST", body: "{}" });
    expect(noKey.status).toBe(401);
    expect((await call()).choices[0]!.message.content).toBe("kept for later");
  });
});
