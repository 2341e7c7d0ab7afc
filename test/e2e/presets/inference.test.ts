// Presets at inference: the three reference forms on the three inference endpoints, with
// presets created through each of the three create endpoints. The mock upstream records the
// merged request it receives; the generation record keeps the preset id.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { insertKey } from "../../../src/modules/keys/service";
import { NO_RATE_LIMIT } from "../../../src/store/store";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";

type Format = "chat" | "responses" | "messages";
const FORMATS: Format[] = ["chat", "responses", "messages"];
const PATH: Record<Format, string> = { chat: "chat/completions", responses: "responses", messages: "messages" };

let h: GatewayAndUpstream;

const PRICING = `{ prompt: "0.000001", completion: "0.000002" }`;

beforeAll(async () => {
  h = await startGatewayAndUpstream({
    yaml: (url) => `
providers:
  - { slug: oc, api: openai-chat, base_url: "${url}", api_key: k1 }
  - { slug: orr, api: openai-responses, base_url: "${url}", api_key: k2 }
  - { slug: an, api: anthropic-messages, base_url: "${url}", api_key: k3 }
models:
  - { id: t/chat, endpoints: [{ provider: oc, model: up-chat, pricing: ${PRICING} }] }
  - { id: t/chat-b, endpoints: [{ provider: oc, model: up-chat-b, pricing: ${PRICING} }] }
  - { id: t/resp, endpoints: [{ provider: orr, model: up-resp, pricing: ${PRICING} }] }
  - { id: t/anth, endpoints: [{ provider: an, model: up-anth, pricing: ${PRICING} }] }
`,
    keyBody: { name: "preset inference" },
  });
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

async function createPreset(slug: string, format: Format, body: Record<string, unknown>): Promise<any> {
  const res = await h.gw.api(`/api/v1/presets/${slug}/${PATH[format]}`, { method: "POST", json: body });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).data;
}

const infer = (format: Format, body: Record<string, unknown>, apiKey = h.key) =>
  h.gw.api(`/api/v1/${PATH[format]}`, { method: "POST", json: body, key: apiKey });

const lastUpstream = () => {
  const last = h.up.requests.at(-1);
  if (!last) throw new Error("no upstream request");
  return last;
};

const PARAMS = { type: "object", properties: { q: { type: "string" } } };

/** The same configuration written in each create endpoint's own body. */
const PRESET_BODIES: Record<Format, Record<string, unknown>> = {
  chat: {
    model: "t/chat",
    temperature: 0.3,
    max_tokens: 77,
    tools: [{ type: "function", function: { name: "lookup", parameters: PARAMS } }],
    tool_choice: { type: "function", function: { name: "lookup" } },
    messages: [
      { role: "system", content: "Preset rules." },
      { role: "user", content: "not kept" },
    ],
    stream: true,
  },
  responses: {
    model: "t/chat",
    temperature: 0.3,
    max_output_tokens: 77,
    tools: [{ type: "function", name: "lookup", parameters: PARAMS }],
    tool_choice: { type: "function", name: "lookup" },
    instructions: "Preset rules.",
    input: "not kept",
  },
  messages: {
    model: "t/chat",
    temperature: 0.3,
    max_tokens: 77,
    tools: [{ name: "lookup", input_schema: PARAMS }],
    tool_choice: { type: "tool", name: "lookup" },
    system: "Preset rules.",
    messages: [{ role: "user", content: "not kept" }],
  },
};

/** A request with its own instructions, in each inference endpoint's body. */
function requestBody(format: Format, extra: Record<string, unknown>): Record<string, unknown> {
  if (format === "chat")
    return {
      messages: [
        { role: "system", content: "Own rules." },
        { role: "user", content: "hi" },
      ],
      ...extra,
    };
  if (format === "responses") return { instructions: "Own rules.", input: "hi", ...extra };
  return { system: "Own rules.", messages: [{ role: "user", content: "hi" }], ...extra };
}

const FORMS = [
  { name: "model @preset/<slug>", extra: (slug: string) => ({ model: `@preset/${slug}` }), model: "up-chat", temperature: 0.3 },
  {
    name: "model <model>@preset/<slug>",
    extra: (slug: string) => ({ model: `t/chat-b@preset/${slug}`, temperature: 0.9 }),
    model: "up-chat-b",
    temperature: 0.9,
  },
  { name: "preset field", extra: (slug: string) => ({ model: "t/chat-b", preset: slug, temperature: 0.9 }), model: "up-chat-b", temperature: 0.9 },
];

describe("reference forms x inference endpoints x create endpoints", () => {
  for (const source of FORMATS) {
    for (const inbound of FORMATS) {
      test(`preset made via /${PATH[source]}, used from /${PATH[inbound]}`, async () => {
        const slug = `m-${source}-${inbound}`;
        const preset = await createPreset(slug, source, PRESET_BODIES[source]);
        for (const form of FORMS) {
          const res = await infer(inbound, requestBody(inbound, form.extra(slug)));
          expect({ form: form.name, status: res.status }).toEqual({ form: form.name, status: 200 });
          const body = lastUpstream().body;
          expect(lastUpstream().path).toBe("/v1/chat/completions");
          expect({
            form: form.name,
            model: body.model,
            system: body.messages[0],
            count: body.messages.length,
            max_tokens: body.max_tokens,
            temperature: body.temperature,
            tools: body.tools,
            tool_choice: body.tool_choice,
          }).toEqual({
            form: form.name,
            model: form.model,
            system: { role: "system", content: "Preset rules.\n\nOwn rules." },
            count: 2,
            max_tokens: 77,
            temperature: form.temperature,
            tools: [{ type: "function", function: { name: "lookup", parameters: PARAMS } }],
            tool_choice: { type: "function", function: { name: "lookup" } },
          });
          const generation = await h.gw.api(`/api/v1/generation?id=${res.headers.get("x-generation-id")}`, { key: h.key });
          expect(((await generation.json()) as any).data.preset_id).toBe(preset.id);
        }
      });
    }
  }
});

describe("merging", () => {
  test("the designated (latest) version applies", async () => {
    await createPreset("latest", "chat", { model: "t/chat", temperature: 0.1, messages: [{ role: "user", content: "x" }] });
    await createPreset("latest", "chat", { model: "t/chat", temperature: 0.7, messages: [{ role: "user", content: "x" }] });
    expect((await infer("chat", { model: "@preset/latest", messages: [{ role: "user", content: "hi" }] })).status).toBe(200);
    expect(lastUpstream().body.temperature).toBe(0.7);
  });

  test("without own instructions the preset prompt is the whole system text; without a prompt nothing is added", async () => {
    await createPreset("sys-only", "responses", { model: "t/chat", instructions: "Only the preset." });
    expect((await infer("chat", { model: "@preset/sys-only", messages: [{ role: "user", content: "hi" }] })).status).toBe(200);
    expect(lastUpstream().body.messages).toEqual([
      { role: "system", content: "Only the preset." },
      { role: "user", content: "hi" },
    ]);
    await createPreset("no-sys", "responses", { model: "t/chat", temperature: 1 });
    expect((await infer("responses", { model: "@preset/no-sys", input: "hi" })).status).toBe(200);
    expect(lastUpstream().body.messages).toEqual([{ role: "user", content: "hi" }]);
  });

  test("a /messages preset (thinking, stop_sequences) used from /chat/completions reaches an Anthropic upstream intact", async () => {
    await createPreset("thinker", "messages", {
      model: "t/anth",
      max_tokens: 2048,
      thinking: { type: "enabled", budget_tokens: 1024 },
      stop_sequences: ["STOP"],
      system: "Think first.",
      messages: [],
    });
    expect((await infer("chat", { model: "@preset/thinker", messages: [{ role: "user", content: "hi" }] })).status).toBe(200);
    const body = lastUpstream().body;
    expect(lastUpstream().path).toBe("/v1/messages");
    expect({ model: body.model, system: body.system, thinking: body.thinking, max_tokens: body.max_tokens, stop_sequences: body.stop_sequences }).toEqual({
      model: "up-anth",
      system: [{ type: "text", text: "Think first." }],
      thinking: { type: "enabled", budget_tokens: 1024 },
      max_tokens: 2048,
      stop_sequences: ["STOP"],
    });
  });

  test("a /responses preset (reasoning, text.format) used from /messages reaches a Responses upstream", async () => {
    await createPreset("structured", "responses", {
      model: "t/resp",
      reasoning: { effort: "high" },
      max_output_tokens: 99,
      text: { format: { type: "json_schema", name: "out", schema: { type: "object" } } },
    });
    expect((await infer("messages", { model: "@preset/structured", messages: [{ role: "user", content: "hi" }] })).status).toBe(200);
    const body = lastUpstream().body;
    expect(lastUpstream().path).toBe("/v1/responses");
    // the preset is decoded by the Responses codec, so the schema name survives even though
    // the request's own format (Anthropic's output_config.format) could not have carried it
    expect({ model: body.model, reasoning: body.reasoning, max_output_tokens: body.max_output_tokens, format: body.text?.format }).toEqual({
      model: "up-resp",
      reasoning: { effort: "high" },
      max_output_tokens: 99,
      format: { type: "json_schema", name: "out", schema: { type: "object" } },
    });
  });

  test("streaming requests use the preset too", async () => {
    await createPreset("streamer", "chat", { model: "t/chat", max_tokens: 12, messages: [{ role: "user", content: "x" }] });
    const res = await infer("chat", { model: "@preset/streamer", stream: true, messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("data: [DONE]");
    expect({ stream: lastUpstream().body.stream, max_tokens: lastUpstream().body.max_tokens }).toEqual({ stream: true, max_tokens: 12 });
  });
});

describe("errors", () => {
  test("an unknown preset is a 404 on every endpoint and in every form", async () => {
    for (const format of FORMATS) {
      for (const extra of [{ model: "@preset/ghost" }, { model: "t/chat@preset/ghost" }, { model: "t/chat", preset: "ghost" }]) {
        const res = await infer(format, requestBody(format, extra));
        const text = await res.text();
        expect({ format, extra, status: res.status }).toEqual({ format, extra, status: 404 });
        expect(text).toContain("Preset not found: ghost");
      }
    }
    expect(h.up.requests.length).toBe(0);
  });

  test("a preset of another workspace is not found", async () => {
    await createPreset("private", "chat", { model: "t/chat", messages: [{ role: "user", content: "x" }] });
    const now = Date.now();
    const ws = await h.gw.ctx.store.workspaces.create({
      id: crypto.randomUUID(),
      name: "Elsewhere",
      slug: "elsewhere",
      description: null,
      isDefault: false,
      defaultTextModel: null,
      defaultImageModel: null,
      defaultProviderSort: null,
      rateLimit: NO_RATE_LIMIT,
      settings: {},
      webhookUrl: null,
      createdBy: null,
      createdAt: now,
      updatedAt: null,
    });
    const { raw } = await insertKey(h.gw.ctx.store, now, { name: "elsewhere", isManagement: false, workspaceId: ws.id, creatorUserId: null });
    const res = await infer("chat", { model: "@preset/private", messages: [{ role: "user", content: "hi" }] }, raw);
    expect(res.status).toBe(404);
    expect(h.up.requests.length).toBe(0);
  });

  test("conflicting references and an empty slug are 400", async () => {
    await createPreset("one", "chat", { model: "t/chat", messages: [{ role: "user", content: "x" }] });
    await createPreset("two", "chat", { model: "t/chat", messages: [{ role: "user", content: "x" }] });
    const conflicting = await infer("chat", { model: "t/chat@preset/one", preset: "two", messages: [{ role: "user", content: "hi" }] });
    expect(conflicting.status).toBe(400);
    const empty = await infer("responses", { model: "t/chat@preset/", input: "hi" });
    expect(empty.status).toBe(400);
    expect(h.up.requests.length).toBe(0);
  });
});
