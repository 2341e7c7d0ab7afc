// Golden matrix, tools: parallel tool calls whose arguments stream in many small chunks keep
// their ids, names and exact argument strings in every pair; the second turn carries the
// tool results back in the upstream's shape (Gemini's thought signature back on its call, through
// every client's history); tool_choice maps to each upstream's dialect.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, caseLabel, FINISH, MATRIX, type Spec, type ToolSpec } from "./drivers";
import { type Harness, INBOUNDS, type Inbound, MODEL, startHarness, UPSTREAMS, type UpstreamKind, WIRE, type Wire } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const CITY = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const TZ = { type: "object", properties: { tz: { type: "string" } }, required: ["tz"] };
const TOOLS: ToolSpec[] = [
  { name: "get_weather", description: "Weather in a city", parameters: CITY },
  { name: "get_time", description: "Time in a zone", parameters: TZ },
];

const WEATHER_ARGS = '{"city":"Paris","days":[1,2],"unit":"c"}';
const TIME_ARGS = '{"tz":"Europe/Paris","fmt":"24h"}';
/** Splits a string into pieces of at most n characters, as a slow upstream streams them. */
const pieces = (s: string, n: number) => Array.from({ length: Math.ceil(s.length / n) }, (_, i) => s.slice(i * n, i * n + n));

const TOOL_TURN = {
  text: ["Check", "ing."],
  toolCalls: [
    // Gemini signs the first call of a step (only the Gemini renderer sends it)
    { id: "call_w1", name: "get_weather", arguments: pieces(WEATHER_ARGS, 3), signature: "c2lnLXdlYXRoZXI=" },
    { id: "call_t2", name: "get_time", arguments: pieces(TIME_ARGS, 2) },
  ],
  usage: { input: 30, output: 12 },
};

/** Tools as each upstream body format must receive them. */
function expectTools(inbound: Inbound, upstream: Wire, body: any) {
  if (upstream === "gemini") {
    expect(body.tools).toEqual([
      { functionDeclarations: TOOLS.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) },
    ]);
  } else if (upstream === "openai-chat") {
    // a Responses client's explicit strict: false travels on
    const strict = inbound === "responses" ? { strict: false } : {};
    expect(body.tools).toEqual(
      TOOLS.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters, ...strict } })),
    );
  } else if (upstream === "openai-responses") {
    expect(body.tools).toEqual(TOOLS.map((t) => ({ type: "function", name: t.name, description: t.description, parameters: t.parameters, strict: false })));
  } else if (upstream === "bedrock") {
    expect(body.toolConfig).toEqual({
      tools: TOOLS.map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters } } })),
    });
  } else {
    expect(body.tools).toEqual(TOOLS.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })));
  }
}

/** Turn two (question, the assistant's tool calls, both results) as each upstream body format must receive it. */
function expectToolResults(upstream: Wire, body: any) {
  if (upstream === "gemini") {
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "Weather and time in Paris?" }] },
      {
        role: "model",
        parts: [
          { text: "Checking." },
          { functionCall: { id: "call_w1", name: "get_weather", args: JSON.parse(WEATHER_ARGS) }, thoughtSignature: "c2lnLXdlYXRoZXI=" },
          { functionCall: { id: "call_t2", name: "get_time", args: JSON.parse(TIME_ARGS) } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: "call_w1", name: "get_weather", response: { result: "18C" } } },
          { functionResponse: { id: "call_t2", name: "get_time", response: { result: "14:05" } } },
        ],
      },
    ]);
  } else if (upstream === "openai-chat") {
    expect(body.messages).toEqual([
      { role: "user", content: "Weather and time in Paris?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "call_w1", type: "function", function: { name: "get_weather", arguments: WEATHER_ARGS } },
          { id: "call_t2", type: "function", function: { name: "get_time", arguments: TIME_ARGS } },
        ],
      },
      { role: "tool", tool_call_id: "call_w1", content: "18C" },
      { role: "tool", tool_call_id: "call_t2", content: "14:05" },
    ]);
  } else if (upstream === "openai-responses") {
    expect(body.input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "Weather and time in Paris?" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking.", annotations: [] }] },
      { type: "function_call", call_id: "call_w1", name: "get_weather", arguments: WEATHER_ARGS },
      { type: "function_call", call_id: "call_t2", name: "get_time", arguments: TIME_ARGS },
      { type: "function_call_output", call_id: "call_w1", output: "18C" },
      { type: "function_call_output", call_id: "call_t2", output: "14:05" },
    ]);
  } else if (upstream === "bedrock") {
    expect(body.messages).toEqual([
      { role: "user", content: [{ text: "Weather and time in Paris?" }] },
      {
        role: "assistant",
        content: [
          { text: "Checking." },
          { toolUse: { toolUseId: "call_w1", name: "get_weather", input: JSON.parse(WEATHER_ARGS) } },
          { toolUse: { toolUseId: "call_t2", name: "get_time", input: JSON.parse(TIME_ARGS) } },
        ],
      },
      {
        role: "user",
        content: [{ toolResult: { toolUseId: "call_w1", content: [{ text: "18C" }] } }, { toolResult: { toolUseId: "call_t2", content: [{ text: "14:05" }] } }],
      },
    ]);
    // the tools stay declared: Converse refuses toolUse blocks without a toolConfig
    expect(body.toolConfig.tools.map((t: any) => t.toolSpec.name)).toEqual(["get_weather", "get_time"]);
  } else {
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Weather and time in Paris?" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "call_w1", name: "get_weather", input: JSON.parse(WEATHER_ARGS) },
          { type: "tool_use", id: "call_t2", name: "get_time", input: JSON.parse(TIME_ARGS) },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_w1", content: "18C" },
          { type: "tool_result", tool_use_id: "call_t2", content: "14:05" },
        ],
      },
    ]);
  }
}

describe("parallel tool calls, streamed arguments, and the results sent back", () => {
  for (const c of MATRIX) {
    test(caseLabel(c), async () => {
      h.up.enqueue(TOOL_TURN, { text: "Sunny, 18C, 14:05." });
      const spec: Spec = { model: MODEL[c.upstream], tools: TOOLS, turns: [{ role: "user", text: "Weather and time in Paris?" }] };
      const first = await call(h, c.inbound, c.stream, spec);
      expect(first.text).toBe("Checking.");
      expect(first.finish).toBe(FINISH[c.inbound].tool_calls);
      expect(first.toolCalls).toEqual([
        { id: "call_w1", name: "get_weather", arguments: WEATHER_ARGS },
        { id: "call_t2", name: "get_time", arguments: TIME_ARGS },
      ]);
      expectTools(c.inbound, WIRE[c.upstream], h.up.requests[0]!.body);

      const second = await call(h, c.inbound, c.stream, {
        ...spec,
        turns: [
          ...spec.turns,
          { role: "native", items: first.history },
          { role: "tool", id: "call_w1", content: "18C" },
          { role: "tool", id: "call_t2", content: "14:05" },
        ],
      });
      expect(second.text).toBe("Sunny, 18C, 14:05.");
      expect(second.finish).toBe(FINISH[c.inbound].stop);
      expectToolResults(WIRE[c.upstream], h.up.requests[1]!.body);
    });
  }
});

describe("tool calls another model made reach Gemini with Google's placeholder signature", () => {
  for (const inbound of INBOUNDS) {
    test(inbound, async () => {
      // the first turn served by Anthropic, whose calls carry no Gemini signature
      h.up.enqueue(TOOL_TURN, { text: "Sunny." }, { text: "Sunny." });
      const spec: Spec = { model: MODEL["anthropic-messages"], tools: TOOLS, turns: [{ role: "user", text: "Weather and time in Paris?" }] };
      const first = await call(h, inbound, false, spec);
      const turns: Spec["turns"] = [
        ...spec.turns,
        { role: "native", items: first.history },
        { role: "tool", id: "call_w1", content: "18C" },
        { role: "tool", id: "call_t2", content: "14:05" },
      ];
      for (const upstream of ["gemini", "vertex-gemini"] as const) {
        await call(h, inbound, false, { ...spec, model: MODEL[upstream], turns });
        const calls = h.lastRequest().body.contents[1].parts.filter((p: any) => p.functionCall);
        expect(calls.map((p: any) => [p.functionCall.id, p.thoughtSignature])).toEqual([
          ["call_w1", "skip_thought_signature_validator"],
          ["call_t2", undefined],
        ]);
      }
    });
  }
});

type Choice = NonNullable<Spec["toolChoice"]>;
const CHOICES: Array<{ choice: Choice; wire: Record<Wire, unknown> }> = [
  // Converse has no "none": the tools are left out instead
  {
    choice: "auto",
    wire: {
      "openai-chat": "auto",
      "openai-responses": "auto",
      "anthropic-messages": { type: "auto" },
      bedrock: { auto: {} },
      gemini: { functionCallingConfig: { mode: "AUTO" } },
    },
  },
  {
    choice: "none",
    wire: {
      "openai-chat": "none",
      "openai-responses": "none",
      "anthropic-messages": { type: "none" },
      bedrock: "no toolConfig",
      gemini: { functionCallingConfig: { mode: "NONE" } },
    },
  },
  {
    choice: "required",
    wire: {
      "openai-chat": "required",
      "openai-responses": "required",
      "anthropic-messages": { type: "any" },
      bedrock: { any: {} },
      gemini: { functionCallingConfig: { mode: "ANY" } },
    },
  },
  {
    choice: { name: "get_time" },
    wire: {
      "openai-chat": { type: "function", function: { name: "get_time" } },
      "openai-responses": { type: "function", name: "get_time" },
      "anthropic-messages": { type: "tool", name: "get_time" },
      bedrock: { tool: { name: "get_time" } },
      gemini: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_time"] } },
    },
  },
];

/** The tool choice as the upstream received it: Bedrock's sits in toolConfig, Gemini's is its toolConfig. */
function sentChoice(upstream: UpstreamKind, body: any): unknown {
  if (WIRE[upstream] === "gemini") return body.toolConfig;
  if (WIRE[upstream] === "bedrock") return body.toolConfig ? body.toolConfig.toolChoice : "no toolConfig";
  return body.tool_choice;
}

describe("tool_choice maps to each upstream's dialect", () => {
  for (const inbound of INBOUNDS) {
    for (const upstream of UPSTREAMS) {
      test(`${inbound} -> ${upstream}`, async () => {
        for (const { choice, wire } of CHOICES) {
          h.up.enqueue({ text: "ok" });
          await call(h, inbound, false, { model: MODEL[upstream], tools: TOOLS, toolChoice: choice, turns: [{ role: "user", text: "go" }] });
          // the body format decides: Claude on Vertex takes Anthropic's tool_choice, Gemini a toolConfig
          expect(sentChoice(upstream, h.lastRequest().body)).toEqual(wire[WIRE[upstream]]);
        }
      });
    }
  }

  test("parallel_tool_calls: false reaches each upstream", async () => {
    h.up.enqueue({ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" });
    const body = (model: string) => ({
      model,
      messages: [{ role: "user" as const, content: "go" }],
      tools: TOOLS.map((t) => ({ type: "function" as const, function: t })),
      parallel_tool_calls: false,
    });
    await h.openai.chat.completions.create(body(MODEL["openai-chat"]));
    expect(h.lastRequest().body.parallel_tool_calls).toBe(false);
    await h.openai.chat.completions.create(body(MODEL["openai-responses"]));
    expect(h.lastRequest().body.parallel_tool_calls).toBe(false);
    await h.openai.chat.completions.create(body(MODEL["anthropic-messages"]));
    expect(h.lastRequest().body.tool_choice).toEqual({ type: "auto", disable_parallel_tool_use: true });
    await h.openai.chat.completions.create(body(MODEL["azure-openai"]));
    expect(h.lastRequest().body.parallel_tool_calls).toBe(false);
  });
});
