import type { AppContext } from "../app-context";
import { badRequest, notFound } from "../errors";
import type { Principal } from "../http/principal";
import type { IRRequest } from "../ir/types";
import { type InboundFormat, inboundCodecs } from "./codecs";
import { decodePresetConfig } from "./presets/decode-config";
import { mergePresetIR } from "./presets/merge-ir";
import { findPresetReference } from "./presets/reference";
import { presetFormat } from "./presets/stored-format";

/**
 * Decodes an inference body with its format's codec and applies the preset it references
 * (`@preset/<slug>`, `<model>@preset/<slug>`, `preset`): the designated version of the preset in
 * the caller's workspace, decoded by the codec of the format that created it and merged under the
 * request at the IR level, so a preset made through any endpoint serves every endpoint.
 */
export async function decodeWithPreset(
  ctx: AppContext,
  principal: Principal,
  format: InboundFormat,
  body: unknown,
  headers: Headers,
): Promise<{ ir: IRRequest; presetId: string | null }> {
  const codec = inboundCodecs[format];
  const reference = findPresetReference(body);
  if (!reference) return { ir: codec.decodeRequest(body, headers), presetId: null };
  const preset = await ctx.store.presets.find(principal.workspace.id, reference.slug);
  const version = preset?.designatedVersionId ? await ctx.store.presets.getVersionById(preset.designatedVersionId) : undefined;
  if (!preset || !version) throw notFound(`Preset not found: ${reference.slug}`);
  if (preset.status !== "active") throw badRequest(`Preset '${reference.slug}' is ${preset.status}`, { field: "preset" });
  const request = codec.decodeRequest(reference.body, headers);
  const config = decodePresetConfig(reference.slug, presetFormat(version), version.config, headers);
  return { ir: mergePresetIR(config, request, version.systemPrompt), presetId: preset.id };
}
