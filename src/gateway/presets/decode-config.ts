import { Value } from "@sinclair/typebox/value";
import { badRequest, GatewayError } from "../../errors";
import { explainFailure } from "../../http/validation-message";
import type { IRRequest } from "../../ir/types";
import { pointerToField } from "../../json-pointer";
import { type InboundFormat, inboundCodecs } from "../codecs";
import type { Json } from "./json";

/**
 * The first config field its format's schema refuses. A config is part of a body that schema
 * accepted, but decoders trust a validated body, and a version written by an earlier release
 * (its format inferred, or the schema since changed) must not reach one unchecked.
 */
function refusedField(format: InboundFormat, config: Json): { field: string; message: string } | undefined {
  const schema = inboundCodecs[format].preset.requestSchema;
  for (const [key, value] of Object.entries(config)) {
    const property = schema.properties[key];
    if (!property) {
      if (schema.additionalProperties === true) continue;
      return { field: key, message: "Unexpected property" };
    }
    const error = Value.Errors(property, value).First();
    if (error) {
      const { pointer, problem } = explainFailure(error);
      return { field: pointerToField(`/${key}${pointer}`), message: problem };
    }
  }
  return undefined;
}

/**
 * A preset's config as the IR its own format's codec decodes it to (the conversation empty).
 * What the codec refuses is a 400 naming the preset: the request cannot use it.
 */
export function decodePresetConfig(slug: string, format: InboundFormat, config: Json, headers: Headers): IRRequest {
  const refused = refusedField(format, config);
  if (refused)
    throw badRequest(`Preset '${slug}' is not a valid ${format} configuration: field '${refused.field}': ${refused.message}`, {
      field: refused.field,
      preset: slug,
    });
  try {
    return inboundCodecs[format].decodeRequest({ ...config, ...inboundCodecs[format].preset.noConversation }, headers);
  } catch (err) {
    if (!(err instanceof GatewayError) || err.status !== 400) throw err;
    throw badRequest(`Preset '${slug}': ${err.message}`, { ...err.metadata, field: "preset", preset: slug });
  }
}
