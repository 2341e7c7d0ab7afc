// The default tool runner of @anthropic-ai/sdk (client.beta.messages.toolRunner) against the
// gateway: it asks for a message thread first, takes the gateway's thread_unsupported_request
// answer as the cue to run unthreaded, then runs a real tool through two rounds. Every upstream
// format, JSON and streaming.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
import { type Harness, MODEL, startHarness, UPSTREAMS, type UpstreamKind, WIRE } from "../inference/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

type Exchange = { body: any; status: number; answer: any };

/** A default Anthropic client on the gateway that records what it sent and what came back. */
function recordingClient(): { client: Anthropic; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    const body = JSON.parse(String(init?.body));
    const answer = res.status === 200 ? null : await res.clone().json();
    exchanges.push({ body, status: res.status, answer });
    return res;
  };
  const client = new Anthropic({ apiKey: h.key, baseURL: `${h.gw.url}/api`, maxRetries: 0, fetch: recording as typeof fetch });
  return { client, exchanges };
}

const TEMPERATURES: Record<string, string> = { Paris: "18C", London: "12C" };

/** Two rounds of tool calls, then the answer. */
function scriptTurns() {
  h.up.enqueue(
    { toolCalls: [{ id: "call_paris", name: "get_weather", arguments: ['{"ci', 'ty":"Paris"}'] }], usage: { input: 40, output: 9 } },
    { toolCalls: [{ id: "call_london", name: "get_weather", arguments: '{"city":"London"}' }], usage: { input: 60, output: 9 } },
    { text: ["Paris 18C,", " London 12C."], usage: { input: 80, output: 7 } },
  );
}

/** The tool results as each upstream format receives them in the last request. */
function expectResultsUpstream(upstream: UpstreamKind, body: any) {
  if (WIRE[upstream] === "gemini") {
    expect(body.contents.flatMap((c: any) => c.parts).filter((p: any) => p.functionResponse)).toEqual([
      { functionResponse: { id: "call_paris", name: "get_weather", response: { result: "18C" } } },
      { functionResponse: { id: "call_london", name: "get_weather", response: { result: "12C" } } },
    ]);
  } else if (WIRE[upstream] === "openai-chat") {
    expect(body.messages.filter((m: any) => m.role === "tool")).toEqual([
      { role: "tool", tool_call_id: "call_paris", content: "18C" },
      { role: "tool", tool_call_id: "call_london", content: "12C" },
    ]);
  } else if (WIRE[upstream] === "openai-responses") {
    expect(body.input.filter((i: any) => i.type === "function_call_output")).toEqual([
      { type: "function_call_output", call_id: "call_paris", output: "18C" },
      { type: "function_call_output", call_id: "call_london", output: "12C" },
    ]);
  } else if (upstream === "bedrock") {
    const results = body.messages.flatMap((m: any) => m.content).filter((b: any) => b.toolResult);
    expect(results).toEqual([
      { toolResult: { toolUseId: "call_paris", content: [{ text: "18C" }] } },
      { toolResult: { toolUseId: "call_london", content: [{ text: "12C" }] } },
    ]);
  } else {
    const results = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === "tool_result");
    expect(results).toEqual([
      { type: "tool_result", tool_use_id: "call_paris", content: "18C" },
      { type: "tool_result", tool_use_id: "call_london", content: "12C" },
    ]);
  }
}

describe("the default toolRunner falls back to unthreaded turns and runs a tool over two rounds", () => {
  for (const upstream of UPSTREAMS) {
    for (const stream of [false, true]) {
      test(`${upstream} ${stream ? "stream" : "json"}`, async () => {
        scriptTurns();
        const { client, exchanges } = recordingClient();
        const calls: string[] = [];
        const weather = betaTool({
          name: "get_weather",
          description: "Weather in a city",
          inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          run: ({ city }) => {
            calls.push(city);
            return TEMPERATURES[city] ?? "unknown";
          },
        });
        const runner = client.beta.messages.toolRunner({
          model: MODEL[upstream],
          max_tokens: 200,
          messages: [{ role: "user", content: "Weather in Paris and London?" }],
          tools: [weather],
          stream,
        });
        const final = await runner.runUntilDone();

        expect(calls).toEqual(["Paris", "London"]);
        expect(final.content.map((b) => (b.type === "text" ? b.text : b.type))).toEqual(["Paris 18C, London 12C."]);
        expect(final.stop_reason).toBe("end_turn");

        // the first request asked for a thread and got exactly the answer the SDK falls back on
        expect(exchanges[0]!.body.thread).toEqual({ type: "create" });
        expect(exchanges[0]!.status).toBe(400);
        expect(exchanges[0]!.answer).toEqual({
          type: "error",
          error: {
            type: "invalid_request_error",
            message: "Invalid field 'thread': this gateway holds no message threads; send the full conversation without 'thread'",
            details: { error_code: "thread_unsupported_request" },
          },
          request_id: null,
        });
        // then the same turn without a thread, and each later turn with the whole conversation
        expect(exchanges.slice(1).map((e) => [e.status, "thread" in e.body, e.body.messages.length])).toEqual([
          [200, false, 1],
          [200, false, 3],
          [200, false, 5],
        ]);
        expect(h.up.requests.length).toBe(3);
        expectResultsUpstream(upstream, h.up.requests[2]!.body);
      });
    }
  }
});
