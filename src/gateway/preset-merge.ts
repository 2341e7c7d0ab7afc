import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import type { AppContext } from "../app-context";
import { badRequest, notFound } from "../errors";
import { pointerToField } from "../json-pointer";
import type { Principal } from "../http/principal";
import { ChatRequestSchema } from "../formats/openai-chat/schema";
import { ResponsesRequestSchema } from "../formats/openai-responses/schema";
import { MessagesRequestSchema } from "../formats/anthropic-messages/schema";
import { inboundCodecs, type InboundFormat } from "./codecs";
import type { IRRequest } from "../ir/types";
import { fromChatConfig } from "./presets/from-chat-config";
import type { Json } from "./presets/json";
import { findPresetReference } from "./presets/reference";
import { prependSystemPrompt } from "./presets/system-prompt";
import { toChatConfig } from "./presets/to-chat-config";

export type PresetApplied = { body: unknown; presetId: string | null };

const SCHEMAS: Record<InboundFormat, TSchema> = {
  "openai-chat": ChatRequestSchema,
  "openai-responses": ResponsesRequestSchema,
  "anthropic-messages": MessagesRequestSchema,
};

/**
 * The preset config in the names of `format` (stored configs keep the names of the endpoint
 * that created them). Fields with no equivalent there are dropped unless that endpoint's
 * schema is declared open: Elysia (normalize: false) refuses unknown fields of any other
 * object schema, so a client could not have sent them either.
 */
export function presetConfigFor(config: Json, format: InboundFormat): Json {
  const translated = fromChatConfig(toChatConfig(config), format);
  const schema = SCHEMAS[format] as TSchema & { properties?: Record<string, unknown>; additionalProperties?: unknown };
  if (schema.additionalProperties === true || !schema.properties) return translated;
  const known = schema.properties;
  return Object.fromEntries(Object.entries(translated).filter(([key]) => key in known));
}

/** Request fields over preset fields (shallow), then the preset's system prompt before the request's instructions. */
export function mergePreset(format: InboundFormat, request: Json, preset: { config: Json; systemPrompt: string | null }): Json {
  const merged: Json = { ...presetConfigFor(preset.config, format) };
  for (const [key, value] of Object.entries(request)) if (value !== undefined) merged[key] = value;
  return preset.systemPrompt ? prependSystemPrompt(format, merged, preset.systemPrompt) : merged;
}

/**
 * Applies the preset a request references (`@preset/<slug>`, `<model>@preset/<slug>`, `preset`)
 * to its raw body: the designated version of the preset in the caller's workspace.
 */
export async function applyPreset(ctx: AppContext, principal: Principal, format: InboundFormat, body: unknown): Promise<PresetApplied> {
  const reference = findPresetReference(body);
  if (!reference) return { body, presetId: null };
  const preset = await ctx.store.presets.find(principal.workspace.id, reference.slug);
  const version = preset?.designatedVersionId ? await ctx.store.presets.getVersionById(preset.designatedVersionId) : undefined;
  if (!preset || !version) throw notFound(`Preset not found: ${reference.slug}`);
  if (preset.status !== "active") throw badRequest(`Preset '${reference.slug}' is ${preset.status}`, { field: "preset" });
  const merged = mergePreset(format, reference.body, { config: version.config, systemPrompt: version.systemPrompt });
  // decoders trust a validated body; a preset made for another endpoint may not fit this one
  const error = Value.Errors(SCHEMAS[format], merged).First();
  if (error) {
    const field = pointerToField(error.path) || "(root)";
    throw badRequest(`Preset '${reference.slug}' does not fit this endpoint: field '${field}': ${error.message}`, { field, preset: reference.slug });
  }
  return { body: merged, presetId: preset.id };
}

/** The request as IR, with the preset it references (if any) merged in. */
export async function decodeWithPreset(ctx: AppContext, principal: Principal, format: InboundFormat, body: unknown, headers: Headers): Promise<{ ir: IRRequest; presetId: string | null }> {
  const applied = await applyPreset(ctx, principal, format, body);
  return { ir: inboundCodecs[format].decodeRequest(applied.body, headers), presetId: applied.presetId };
}
