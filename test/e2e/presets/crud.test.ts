// OpenRouter's Presets API: create-or-version through the three inference bodies, field
// filtering, reads with pagination, racing creates, workspace isolation and errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { insertKey } from "../../../src/modules/keys/service";
import { NO_RATE_LIMIT } from "../../../src/store/store";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
let inferenceKey: string;

beforeAll(async () => {
  gw = await startTestGateway();
  inferenceKey = (await createInferenceKey(gw, { name: "presets e2e" })).key;
});
afterAll(() => gw.close());

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);

async function create(slug: string, endpoint: "chat/completions" | "responses" | "messages", body: unknown, key?: string) {
  const res = await gw.api(`/api/v1/presets/${slug}/${endpoint}`, { method: "POST", json: body, key });
  return { status: res.status, json: (await res.json()) as any };
}

const chatBody = (extra: Record<string, unknown> = {}) => ({ model: "acme/alpha", messages: [{ role: "user", content: "hi" }], ...extra });

describe("create and version", () => {
  test("first create makes version 1 with the full preset shape", async () => {
    const { status, json } = await create("shape", "chat/completions", chatBody({ temperature: 0.5 }));
    expect(status).toBe(200);
    const ws = (await gw.ctx.store.workspaces.getDefault())!;
    expect(json).toEqual({
      data: {
        id: UUID,
        slug: "shape",
        name: "shape",
        description: null,
        status: "active",
        status_updated_at: null,
        designated_version_id: json.data.designated_version.id,
        creator_user_id: expect.anything(),
        workspace_id: ws.id,
        created_at: ISO,
        updated_at: ISO,
        designated_version: {
          id: UUID,
          preset_id: json.data.id,
          version: 1,
          config: { model: "acme/alpha", temperature: 0.5 },
          system_prompt: null,
          creator_id: expect.any(String),
          created_at: ISO,
          updated_at: ISO,
        },
      },
    });
  });

  test("repeated creates give versions 1, 2, 3 and designate the last", async () => {
    const versions: number[] = [];
    for (const temperature of [0.1, 0.2, 0.3]) {
      const { status, json } = await create("triple", "chat/completions", chatBody({ temperature }));
      expect(status).toBe(200);
      versions.push(json.data.designated_version.version);
    }
    expect(versions).toEqual([1, 2, 3]);
    const got = (await (await gw.api("/api/v1/presets/triple")).json()) as any;
    expect(got.data.designated_version.version).toBe(3);
    expect(got.data.designated_version.config).toEqual({ model: "acme/alpha", temperature: 0.3 });
    expect(got.data.designated_version_id).toBe(got.data.designated_version.id);
  });

  test("each version records the endpoint it was created through (kept, not shown)", async () => {
    const formats = [];
    for (const [endpoint, body] of [
      ["responses", { model: "acme/alpha", input: "hi" }],
      ["messages", { model: "acme/alpha", messages: [] }],
      ["chat/completions", chatBody()],
    ] as const) {
      const { status, json } = await create("formats", endpoint, body);
      expect(status).toBe(200);
      expect(json.data.designated_version.format).toBeUndefined();
      formats.push((await gw.ctx.store.presets.getVersionById(json.data.designated_version.id))?.format);
    }
    expect(formats).toEqual(["openai-responses", "anthropic-messages", "openai-chat"]);
  });

  test("concurrent creates on one slug get consecutive versions, never a duplicate", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => create("race", "responses", { model: "acme/alpha", temperature: i / 20 })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const versions = results.map((r) => r.json.data.designated_version.version).sort((a: number, b: number) => a - b);
    expect(versions).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.json.data.id)).size).toBe(1);
    const list = (await (await gw.api("/api/v1/presets/race/versions?limit=100")).json()) as any;
    expect(list.total_count).toBe(20);
    expect(list.data.map((v: any) => v.version)).toEqual(versions);
  });
});

describe("field filtering", () => {
  test("chat: config fields kept, transient dropped, system and developer messages become the system prompt", async () => {
    const { json } = await create("chat-filter", "chat/completions", {
      model: "acme/alpha",
      models: ["acme/beta"],
      messages: [
        { role: "system", content: "You are terse." },
        { role: "developer", content: [{ type: "text", text: "Answer in French." }] },
        { role: "user", content: "hi" },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 300,
      stop: ["END"],
      seed: 7,
      response_format: { type: "json_object" },
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
      tool_choice: "auto",
      reasoning: { effort: "low" },
      provider: { order: ["acme-cloud"] },
      plugins: [{ id: "web" }],
      metadata: { a: "b" },
      user: "u1",
      session_id: "s1",
      trace: { trace_id: "t1" },
      preset: "other",
    });
    expect(json.data.designated_version.config).toEqual({
      model: "acme/alpha",
      models: ["acme/beta"],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 300,
      stop: ["END"],
      seed: 7,
      response_format: { type: "json_object" },
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
      tool_choice: "auto",
      reasoning: { effort: "low" },
      provider: { order: ["acme-cloud"] },
      plugins: [{ id: "web" }],
    });
    expect(json.data.designated_version.system_prompt).toBe("You are terse.\n\nAnswer in French.");
  });

  test("responses: instructions become the system prompt; input, prompt-less transient fields dropped", async () => {
    const { json } = await create("resp-filter", "responses", {
      model: "acme/alpha",
      input: "hello",
      instructions: "Be brief.",
      stream: false,
      max_output_tokens: 100,
      temperature: 1,
      text: { format: { type: "json_schema", name: "out", schema: { type: "object" } }, verbosity: "low" },
      reasoning: { effort: "high", summary: "auto" },
      tools: [{ type: "function", name: "lookup", parameters: { type: "object" } }],
      tool_choice: { type: "function", name: "lookup" },
      parallel_tool_calls: false,
      metadata: { k: "v" },
      user: "u",
      session_id: "s",
      trace: { trace_id: "t" },
      store: false,
      prompt_cache_key: "pk",
    });
    expect(json.data.designated_version.config).toEqual({
      model: "acme/alpha",
      max_output_tokens: 100,
      temperature: 1,
      text: { format: { type: "json_schema", name: "out", schema: { type: "object" } }, verbosity: "low" },
      reasoning: { effort: "high", summary: "auto" },
      tools: [{ type: "function", name: "lookup", parameters: { type: "object" } }],
      tool_choice: { type: "function", name: "lookup" },
      parallel_tool_calls: false,
    });
    expect(json.data.designated_version.system_prompt).toBe("Be brief.");
  });

  test("messages: system (string or blocks) becomes the system prompt", async () => {
    const { json } = await create("msg-filter", "messages", {
      model: "acme/alpha",
      max_tokens: 512,
      system: [
        { type: "text", text: "Part one." },
        { type: "text", text: "Part two." },
      ],
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      temperature: 0.4,
      top_k: 20,
      stop_sequences: ["\n\nHuman:"],
      thinking: { type: "enabled", budget_tokens: 1024 },
      tools: [{ name: "f", input_schema: { type: "object" } }],
      tool_choice: { type: "any" },
      metadata: { user_id: "u" },
      user: "u",
      session_id: "s",
    });
    expect(json.data.designated_version.config).toEqual({
      model: "acme/alpha",
      max_tokens: 512,
      temperature: 0.4,
      top_k: 20,
      stop_sequences: ["\n\nHuman:"],
      thinking: { type: "enabled", budget_tokens: 1024 },
      tools: [{ name: "f", input_schema: { type: "object" } }],
      tool_choice: { type: "any" },
    });
    expect(json.data.designated_version.system_prompt).toBe("Part one.\n\nPart two.");
    const plain = await create("msg-filter", "messages", { model: "acme/alpha", system: "Plain.", messages: null });
    expect(plain.json.data.designated_version).toMatchObject({ version: 2, system_prompt: "Plain.", config: { model: "acme/alpha" } });
  });
});

describe("reads", () => {
  test("list: most recently updated first, offset, limit and total_count", async () => {
    const ws = (await gw.ctx.store.workspaces.getDefault())!;
    const before = await gw.ctx.store.presets.count(ws.id);
    for (const slug of ["list-a", "list-b", "list-c"]) await create(slug, "chat/completions", chatBody());
    await create("list-a", "chat/completions", chatBody({ temperature: 1 })); // list-a updated last
    const res = await gw.api("/api/v1/presets?limit=3&offset=0");
    expect(res.status).toBe(200);
    const json = (await res.json()) as any;
    expect(json.total_count).toBe(before + 3);
    expect(json.data.map((p: any) => p.slug)).toEqual(["list-a", "list-c", "list-b"]);
    expect(Object.keys(json.data[0]).sort()).toEqual([
      "created_at",
      "creator_user_id",
      "description",
      "designated_version_id",
      "id",
      "name",
      "slug",
      "status",
      "status_updated_at",
      "updated_at",
      "workspace_id",
    ]);
    const next = (await (await gw.api("/api/v1/presets?limit=1&offset=1")).json()) as any;
    expect(next.data.map((p: any) => p.slug)).toEqual(["list-c"]);
  });

  test("versions: ascending, paginated, one version by number", async () => {
    for (const temperature of [0.1, 0.2, 0.3]) await create("vers", "chat/completions", chatBody({ temperature }));
    const all = (await (await gw.api("/api/v1/presets/vers/versions")).json()) as any;
    expect(all.total_count).toBe(3);
    expect(all.data.map((v: any) => [v.version, v.config.temperature])).toEqual([
      [1, 0.1],
      [2, 0.2],
      [3, 0.3],
    ]);
    const page = (await (await gw.api("/api/v1/presets/vers/versions?offset=1&limit=1")).json()) as any;
    expect(page).toEqual({ data: [all.data[1]], total_count: 3 });
    const one = await gw.api("/api/v1/presets/vers/versions/2");
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual({ data: all.data[1] });
  });

  test("inference keys create and read presets too", async () => {
    const made = await create("by-inference-key", "messages", { model: "acme/alpha", messages: [] }, inferenceKey);
    expect(made.status).toBe(200);
    const read = await gw.api("/api/v1/presets/by-inference-key", { key: inferenceKey });
    expect(read.status).toBe(200);
    expect(((await read.json()) as any).data.id).toBe(made.json.data.id);
  });
});

describe("workspace isolation", () => {
  test("a key of another workspace neither sees nor reuses this workspace's presets", async () => {
    const now = Date.now();
    const other = await gw.ctx.store.workspaces.create({
      id: crypto.randomUUID(),
      name: "Other",
      slug: "other-ws",
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
    const { raw: otherKey } = await insertKey(gw.ctx.store, now, { name: "other", isManagement: false, workspaceId: other.id, creatorUserId: null });
    await create("shared-slug", "chat/completions", chatBody({ temperature: 0.1 }));

    expect((await gw.api("/api/v1/presets/shared-slug", { key: otherKey })).status).toBe(404);
    expect((await gw.api("/api/v1/presets/shared-slug/versions", { key: otherKey })).status).toBe(404);
    expect((await gw.api("/api/v1/presets/shared-slug/versions/1", { key: otherKey })).status).toBe(404);
    expect(await (await gw.api("/api/v1/presets", { key: otherKey })).json()).toEqual({ data: [], total_count: 0 });

    const theirs = await create("shared-slug", "chat/completions", chatBody({ temperature: 0.9 }), otherKey);
    expect(theirs.json.data).toMatchObject({ workspace_id: other.id, designated_version: { version: 1, config: { temperature: 0.9 } } });
    const ours = (await (await gw.api("/api/v1/presets/shared-slug")).json()) as any;
    expect(ours.data.id).not.toBe(theirs.json.data.id);
    expect(ours.data.designated_version.config.temperature).toBe(0.1);
  });
});

describe("errors", () => {
  const errorOf = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

  test("a slug that is not URL-safe is a 400", async () => {
    for (const slug of ["has%20space", "caf%C3%A9", "semi%3Bcolon", ".hidden"]) {
      const res = await gw.api(`/api/v1/presets/${slug}/chat/completions`, { method: "POST", json: chatBody() });
      const { status, body } = await errorOf(res);
      expect({ slug, status }).toEqual({ slug, status: 400 });
      expect(body.error.code).toBe(400);
    }
    expect((await gw.api("/api/v1/presets/has%20space")).status).toBe(400);
  });

  test("unknown preset and version are 404; a malformed version is 400", async () => {
    const missing = await errorOf(await gw.api("/api/v1/presets/nope"));
    expect(missing).toEqual({ status: 404, body: { error: { code: 404, message: "Preset not found: nope" } } });
    expect((await gw.api("/api/v1/presets/nope/versions")).status).toBe(404);
    await create("has-one", "chat/completions", chatBody());
    expect((await gw.api("/api/v1/presets/has-one/versions/9")).status).toBe(404);
    expect((await gw.api("/api/v1/presets/has-one/versions/0")).status).toBe(400);
    expect((await gw.api("/api/v1/presets/has-one/versions/abc")).status).toBe(400);
  });

  test("an invalid body is a 400 and creates nothing", async () => {
    const res = await errorOf(
      await gw.api("/api/v1/presets/bad-body/chat/completions", {
        method: "POST",
        json: { model: "x", temperature: 9, messages: [{ role: "user", content: "hi" }] },
      }),
    );
    expect(res.status).toBe(400);
    expect((await gw.api("/api/v1/presets/bad-body")).status).toBe(404);
  });

  test("pagination bounds are checked", async () => {
    expect((await gw.api("/api/v1/presets?limit=0")).status).toBe(400);
    expect((await gw.api("/api/v1/presets?limit=101")).status).toBe(400);
    expect((await gw.api("/api/v1/presets?offset=-1")).status).toBe(400);
  });

  test("no key is a 401", async () => {
    expect((await gw.api("/api/v1/presets", { key: null })).status).toBe(401);
    expect((await gw.api("/api/v1/presets/x/responses", { method: "POST", key: null, json: { model: "m" } })).status).toBe(401);
  });
});

test("an offset beyond any page is a 400 naming it, not a 500 (9223372036854776000 overflowed SQLite's integer)", async () => {
  const gw = await startTestGateway();
  try {
    for (const path of ["/api/v1/presets", "/api/v1/keys", "/api/v1/byok", "/api/v1/organization/members", "/api/v1/models"]) {
      const res = await gw.api(`${path}?offset=9223372036854776000`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.metadata.field).toBe("offset");
    }
  } finally {
    await gw.close();
  }
});
