import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";

/**
 * What a failed schema check tells the user: the JSON pointer of the field at fault and
 * what was wrong with it, in words ("expected a number from 0 to 2 or null, got a string").
 * TypeBox alone says "Expected union value" for every nullable or alternative field, which
 * names neither what was expected nor, for a message with a wrong role, the field at fault.
 */
export type FieldProblem = { pointer: string; problem: string };

type Schema = {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  properties?: Record<string, Schema>;
};

export function explainFailure(error: ValueError): FieldProblem {
  switch (error.type) {
    case ValueErrorType.ObjectAdditionalProperties:
      return { pointer: error.path, problem: "unknown field" };
    case ValueErrorType.ObjectRequiredProperty:
      return { pointer: error.path, problem: "is required" };
    case ValueErrorType.Union:
      return explainUnion(error);
  }
  if (error.value === undefined) return { pointer: error.path, problem: "is required" };
  return { pointer: error.path, problem: `expected ${expectationOf(error.schema as Schema)}, got ${shown(error.value)}` };
}

/** A union failed: descend into the one alternative the value was evidently meant to be, else list them all. */
function explainUnion(error: ValueError): FieldProblem {
  const variants = alternatives(error.schema as Schema);
  const discriminated = discriminate(variants, error.value);
  if (discriminated) {
    if (discriminated.kind === "unknown") {
      const allowed = discriminated.allowed.map((v) => JSON.stringify(v)).join(", ");
      return { pointer: `${error.path}/${discriminated.key}`, problem: `expected one of ${allowed}, got ${shown(discriminated.got)}` };
    }
    const inner = firstErrorOf(error, (error.schema as Schema).anyOf!.indexOf(variants[discriminated.index]!));
    if (inner) return explainFailure(inner);
  }
  const kind = jsonKind(error.value);
  if (kind === "object" || kind === "array") {
    const deepest = deepestInnerError(
      error,
      variants.filter((v) => acceptsKind(v, kind)),
    );
    if (deepest) return explainFailure(deepest);
  }
  return { pointer: error.path, problem: `expected ${expectationOf(error.schema as Schema)}, got ${shown(error.value)}` };
}

/**
 * Of the alternatives of the value's own kind, the one it got furthest into: its first error lies
 * deepest, and of errors equally deep one whose value is of the kind its schema takes (a bound
 * failed: `[[1], []]` against lists of strings or of token arrays is the empty token array at 1).
 */
function deepestInnerError(error: ValueError, candidates: Schema[]): ValueError | undefined {
  const all = (error.schema as Schema).anyOf ?? [];
  const inner = candidates.map((v) => firstErrorOf(error, all.indexOf(v))).filter((e): e is ValueError => e !== undefined);
  const best = inner.reduce<ValueError | undefined>((a, e) => (a && reach(a) >= reach(e) ? a : e), undefined);
  return best && (candidates.length === 1 || depth(best.path) > depth(error.path)) ? best : undefined;
}

const depth = (pointer: string) => pointer.split("/").length;

const reach = (error: ValueError) => depth(error.path) * 2 + (acceptsKind(error.schema as Schema, jsonKind(error.value)) ? 1 : 0);

function firstErrorOf(error: ValueError, index: number): ValueError | undefined {
  return index >= 0 ? error.errors[index]?.First() : undefined;
}

type Discrimination = { kind: "unknown"; key: string; allowed: unknown[]; got: unknown } | { kind: "known"; index: number };

/**
 * Object alternatives told apart by a literal property the value carries (`role`, `type`): which
 * alternative the value names, or that the name itself is wrong. The property declared by the
 * most alternatives wins.
 */
function discriminate(variants: Schema[], value: unknown): Discrimination | undefined {
  if (jsonKind(value) !== "object") return undefined;
  const object = value as Record<string, unknown>;
  let best: { key: string; tagged: Array<{ index: number; literals: unknown[] }> } | undefined;
  for (const key of Object.keys(object)) {
    const tagged = variants.flatMap((v, index) => {
      const literals = v.type === "object" ? literalsOf(v.properties?.[key]) : undefined;
      return literals ? [{ index, literals }] : [];
    });
    if (tagged.length > 0 && tagged.length > (best?.tagged.length ?? 0)) best = { key, tagged };
  }
  if (!best) return undefined;
  const got = object[best.key];
  const named = best.tagged.find((t) => t.literals.includes(got));
  if (named) return { kind: "known", index: named.index };
  return { kind: "unknown", key: best.key, allowed: [...new Set(best.tagged.flatMap((t) => t.literals))], got };
}

function literalsOf(schema: Schema | undefined): unknown[] | undefined {
  if (!schema) return undefined;
  if (schema.const !== undefined) return [schema.const];
  if (schema.enum) return schema.enum;
  if (schema.anyOf && schema.anyOf.every((v) => v.const !== undefined)) return schema.anyOf.map((v) => v.const);
  return undefined;
}

/** The alternatives a user can send; Elysia adds a numeric-string twin to every number that the body never takes. */
function alternatives(schema: Schema): Schema[] {
  const variants = schema.anyOf ?? [schema];
  const hasNumber = variants.some((v) => v.type === "number" || v.type === "integer");
  return variants.filter((v) => !(hasNumber && v.type === "string" && (v.format === "integer" || v.format === "numeric")));
}

type JsonKind = "null" | "boolean" | "number" | "string" | "array" | "object";

function jsonKind(value: unknown): JsonKind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as JsonKind;
}

function acceptsKind(schema: Schema, kind: JsonKind): boolean {
  if (schema.anyOf) return alternatives(schema).some((v) => acceptsKind(v, kind));
  if (schema.const !== undefined) return jsonKind(schema.const) === kind;
  if (schema.type === "integer") return kind === "number";
  return schema.type === kind;
}

/** A schema in words: "an integer of at least 1", "one of \"user\", \"assistant\"", "a string or null". */
export function expectationOf(schema: Schema): string {
  if (schema.anyOf) {
    const variants = alternatives(schema);
    if (variants.every((v) => v.const !== undefined)) return `one of ${variants.map((v) => JSON.stringify(v.const)).join(", ")}`;
    return [...new Set(variants.map(expectationOf))].join(" or ");
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  switch (schema.type) {
    case "null":
      return "null";
    case "boolean":
      return "true or false";
    case "number":
      return `a number${range(schema)}`;
    case "integer":
      return `an integer${range(schema)}`;
    case "string":
      return `a string${stringBounds(schema)}`;
    case "array":
      return `an array${countBounds(schema.minItems, schema.maxItems, "item")}`;
    case "object":
      return `an object${countBounds(undefined, schema.maxProperties, "field")}`;
  }
  return "a valid value";
}

function range(s: Schema): string {
  if (s.minimum !== undefined && s.maximum !== undefined) return ` from ${s.minimum} to ${s.maximum}`;
  const parts: string[] = [];
  if (s.minimum !== undefined) parts.push(`of at least ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) parts.push(`greater than ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined) parts.push(`of at most ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) parts.push(`less than ${s.exclusiveMaximum}`);
  return parts.length ? ` ${parts.join(" and ")}` : "";
}

function stringBounds(s: Schema): string {
  const parts: string[] = [];
  const length = countBounds(s.minLength, s.maxLength, "character");
  if (length) parts.push(length.trimStart());
  if (s.pattern) parts.push(`matching ${s.pattern}`);
  return parts.length ? ` ${parts.join(" ")}` : "";
}

function countBounds(min: number | undefined, max: number | undefined, unit: string): string {
  const plural = (n: number) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (min !== undefined && max !== undefined) return ` of ${min} to ${plural(max)}`;
  if (max !== undefined) return ` of at most ${plural(max)}`;
  if (min !== undefined && min > 0) return ` of at least ${plural(min)}`;
  return "";
}

/** The offending value, short: numbers and booleans as they are, everything else by kind. */
function shown(value: unknown): string {
  const kind = jsonKind(value);
  if (kind === "number" || kind === "boolean" || kind === "null") return String(value);
  if (kind === "string") return (value as string).length <= 40 ? JSON.stringify(value) : "a string";
  return kind === "array" ? "an array" : "an object";
}
