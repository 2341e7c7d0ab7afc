// decodeWithPreset: the request decoded by its own codec, the referenced preset looked up in the
// caller's workspace, decoded by its format's codec and merged under it; or the errors of each step.
import { describe, expect, test } from "bun:test";
import type { AppContext } from "../../../src/app-context";
import { GatewayError } from "../../../src/errors";
import { decodeWithPreset } from "../../../src/gateway/preset-merge";
import type { Principal } from "../../../src/http/principal";
import type { PresetRecord, PresetVersionRecord } from "../../../src/store/store";

const principal = { workspace: { id: "ws" } } as Principal;

function contextWith(preset: Partial<PresetRecord> | null, version: Partial<PresetVersionRecord> | null): AppContext {
  const presets = {
    find: async (workspaceId: string, slug: string) =>
      preset && workspaceId === "ws" && slug === "p" ? ({ id: "pid", status: "active", designatedVersionId: "v", ...preset } as PresetRecord) : undefined,
    getVersionById: async (id: string) =>
      version && id === "v" ? ({ config: {}, systemPrompt: null, format: "openai-chat", ...version } as PresetVersionRecord) : undefined,
  };
  return { store: { presets } } as unknown as AppContext;
}

async function failure(run: Promise<unknown>): Promise<{ status: number; message: string; metadata?: Record<string, unknown> }> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(err)}`);
  return { status: err.status, message: err.message, metadata: err.metadata };
}

const chatBody = (extra: Record<string, unknown>) => ({ messages: [{ role: "user", content: "hi" }], ...extra });

describe("decodeWithPreset", () => {
  test("no reference: the request decoded by its own codec, no preset", async () => {
    const { ir, presetId } = await decodeWithPreset(
      contextWith(null, null),
      principal,
      "openai-chat",
      chatBody({ model: "a/b", temperature: 1 }),
      new Headers({ "x-session-id": "s" }),
    );
    expect(presetId).toBeNull();
    expect(ir).toMatchObject({ model: "a/b", temperature: 1, stream: false, sentParameters: ["temperature"] });
  });

  test("a Responses preset under a Messages request: merged IR, the preset's id", async () => {
    const ctx = contextWith(
      {},
      { format: "openai-responses", config: { model: "p/m", max_output_tokens: 7, tools: [{ type: "function", name: "f" }] }, systemPrompt: "Rules." },
    );
    const { ir, presetId } = await decodeWithPreset(
      ctx,
      principal,
      "anthropic-messages",
      { model: "x/y@preset/p", max_tokens: 3, messages: [{ role: "user", content: "hi" }] },
      new Headers(),
    );
    expect(presetId).toBe("pid");
    expect(ir).toMatchObject({
      model: "x/y",
      maxOutputTokens: 3,
      tools: [{ type: "function", name: "f" }],
      messages: [{ role: "system", content: [{ type: "text", text: "Rules." }] }, { role: "user" }],
    });
    expect(ir.sentParameters.sort()).toEqual(["max_tokens", "tools"]);
  });

  test("a version written before formats were recorded is read by the codec its fields name", async () => {
    const ctx = contextWith(
      {},
      { format: null, config: { model: "p/m", thinking: { type: "enabled", budget_tokens: 2048 }, tools: [{ name: "f", input_schema: {} }] } },
    );
    const { ir } = await decodeWithPreset(ctx, principal, "openai-chat", chatBody({ model: "@preset/p" }), new Headers());
    expect(ir).toMatchObject({ model: "p/m", reasoning: { enabled: true, maxTokens: 2048 }, tools: [{ name: "f", parameters: {} }] });
  });

  test("unknown preset 404; disabled 400 naming preset", async () => {
    expect(await failure(decodeWithPreset(contextWith(null, null), principal, "openai-chat", chatBody({ preset: "p" }), new Headers()))).toEqual({
      status: 404,
      message: "Preset not found: p",
      metadata: undefined,
    });
    expect((await failure(decodeWithPreset(contextWith({}, null), principal, "openai-chat", chatBody({ preset: "p" }), new Headers()))).status).toBe(404);
    const disabled = await failure(
      decodeWithPreset(contextWith({ status: "disabled" }, {}), principal, "openai-chat", chatBody({ preset: "p" }), new Headers()),
    );
    expect(disabled).toEqual({ status: 400, message: "Preset 'p' is disabled", metadata: { field: "preset" } });
  });

  test("a stored config its own format's schema refuses is a 400 naming the field and the preset", async () => {
    const ctx = contextWith({}, { format: "anthropic-messages", config: { model: "m", thinking: { type: "sometimes" } } });
    const refused = await failure(decodeWithPreset(ctx, principal, "openai-chat", chatBody({ preset: "p" }), new Headers()));
    expect(refused.status).toBe(400);
    expect(refused.message).toStartWith("Preset 'p' is not a valid anthropic-messages configuration: field 'thinking");
    expect(refused.metadata).toMatchObject({ preset: "p" });
    // unknown top-level fields are ignored on every format (issue 14), in a stored config as in a request
    const unknown = await decodeWithPreset(
      contextWith({}, { format: "openai-responses", config: { stop: ["x"] } }),
      principal,
      "openai-chat",
      chatBody({ preset: "p" }),
      new Headers(),
    );
    expect(unknown.ir.stop).toBeUndefined();
  });
});
