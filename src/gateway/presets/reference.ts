import { badRequest } from "../../errors";
import { isObject, type Json } from "./json";

const MARK = "@preset/";

export type PresetReference = {
  slug: string;
  /** the request body without the reference: `model` keeps only the part before `@preset/` */
  body: Json;
};

/**
 * The three ways a request names a preset: `model: "@preset/<slug>"`,
 * `model: "<model>@preset/<slug>"` and a top-level `preset: "<slug>"`. Null when none is used.
 */
export function findPresetReference(body: unknown): PresetReference | null {
  if (!isObject(body)) return null;
  const rest: Json = { ...body };
  let fromModel: string | undefined;
  if (typeof body.model === "string" && body.model.includes(MARK)) {
    const at = body.model.indexOf(MARK);
    fromModel = body.model.slice(at + MARK.length);
    const model = body.model.slice(0, at);
    if (model === "") delete rest.model;
    else rest.model = model;
  }
  const fromField = typeof body.preset === "string" ? body.preset.replace(/^@preset\//, "") : undefined;
  if (fromModel !== undefined && fromField !== undefined && fromModel !== fromField)
    throw badRequest(`Conflicting presets: model names '${fromModel}' but preset is '${fromField}'`, { field: "preset" });
  const slug = fromModel ?? fromField;
  if (slug === undefined) return null;
  if (slug === "") throw badRequest("Invalid preset reference: the slug is empty", { field: fromModel !== undefined ? "model" : "preset" });
  return { slug, body: rest };
}
