import type { CatalogModel } from "../../catalog/types";
import type { ListModelsQueryInput } from "./model";

/** The /models query filters, each a predicate over a catalog model. */

const list = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** `output_modalities`: a comma list (a model matches with any of them) or `all`; default text. */
export function outputModalityFilter(value: string | undefined): (m: CatalogModel) => boolean {
  const wanted = list(value ?? "text");
  if (wanted.length === 0 || wanted.includes("all")) return () => true;
  return (m) => m.outputModalities.some((x) => wanted.includes(x));
}

/**
 * The catalog has no curated categories, so a category matches by the model's name: only
 * `programming` (code models) and `roleplay` (uncensored / character models) can be told that
 * way; other categories match nothing rather than everything.
 */
const CATEGORY_PATTERNS: Record<string, RegExp> = {
  programming: /cod(e|er|ing|estral)|devstral|program|swe/i,
  roleplay: /uncensored|dolphin|hermes|roleplay|character/i,
};

function categoryFilter(category: string): (m: CatalogModel) => boolean {
  const re = CATEGORY_PATTERNS[category.toLowerCase()];
  return (m) => re !== undefined && re.test(`${m.id} ${m.name}`);
}

function supportsAll(m: CatalogModel, params: string[]): boolean {
  return params.every((p) => m.endpoints.some((e) => e.supportedParameters.includes(p)));
}

export function modelFilters(q: ListModelsQueryInput): Array<(m: CatalogModel) => boolean> {
  const out: Array<(m: CatalogModel) => boolean> = [outputModalityFilter(q.output_modalities)];
  if (q.category) out.push(categoryFilter(q.category));
  const params = list(q.supported_parameters);
  if (params.length) out.push((m) => supportsAll(m, params));
  const inputs = list(q.input_modalities);
  if (inputs.length) out.push((m) => inputs.every((x) => m.inputModalities.includes(x)));
  if (q.q) {
    const needle = q.q.toLowerCase();
    out.push((m) => `${m.id} ${m.name} ${m.description}`.toLowerCase().includes(needle));
  }
  if (q.context !== undefined) out.push((m) => m.contextLength >= q.context!);
  const providers = list(q.providers);
  if (providers.length)
    out.push((m) => m.endpoints.some((e) => providers.includes(e.provider.slug.toLowerCase()) || providers.includes(e.provider.name.toLowerCase())));
  const authors = list(q.model_authors);
  if (authors.length) out.push((m) => authors.includes(m.id.slice(0, m.id.indexOf("/")).toLowerCase()));
  if (q.zdr === "true") out.push((m) => m.endpoints.some((e) => e.provider.zdr));
  return out;
}
