import { Value } from "@sinclair/typebox/value";
import type { TObject } from "@sinclair/typebox";
import { badRequest, GatewayError } from "../../errors";
import { pointerToField } from "../../json-pointer";
import type { IRRequest } from "../../ir/types";
import { ChatRequestSchema } from "../../formats/openai-chat/schema";
import { ResponsesRequestSchema } from "../../formats/openai-responses/schema";
import { MessagesRequestSchema } from "../../formats/anthropic-messages/schema";
import { inboundCodecs, type InboundFormat } from "../codecs";
import type { Json } from "./json";
import { explainFailure } from "../../http/validation-message";

const SCHEMAS: Record<InboundFormat, TObject> = {
  "openai-chat": ChatRequestSchema,
  "openai-responses": ResponsesRequestSchema,
  "anthropic-messages": MessagesRequestSchema,
};

/** A config keeps no conversation; its format's decoder still reads one. */
const NO_CONVERSATION: Record<InboundFormat, Json> = {
  "openai-chat": { messages: [] },
  "openai-responses": { input: [] },
  "anthropic-messages": { messages: [] },
};

/**
 * The first config field its format's schema refuses. A config is part of a body that schema
 * accepted, but decoders trust a validated body, and a version written by an earlier release
 * (its format inferred, or the schema since changed) must not reach one unchecked.
 */
function refusedField(format: InboundFormat, config: Json): { field: string; message: string } | undefined {
  const schema = SCHEMAS[format];
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
  if (refused) throw badRequest(`Preset '${slug}' is not a valid ${format} configuration: field '${refused.field}': ${refused.message}`, { field: refused.field, preset: slug });
  try {
    return inboundCodecs[format].decodeRequest({ ...config, ...NO_CONVERSATION[format] }, headers);
  } catch (err) {
    if (!(err instanceof GatewayError) || err.status !== 400) throw err;
    throw badRequest(`Preset '${slug}': ${err.message}`, { ...err.metadata, field: "preset", preset: slug });
  }
}
