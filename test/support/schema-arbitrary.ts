import fc from "fast-check";
import { resolveRef, type Schema } from "./api-document";

/**
 * fast-check arbitraries from the JSON Schemas of the API document: values a schema accepts (or
 * nearly: patterns and formats are not followed), and the same values mutated, for the guards
 * that drive every operation with generated input.
 */

const MAX_DEPTH = 4;

/**
 * Keys an object's own properties can shadow its prototype's with: JSON may carry them, and code
 * that turns a value into a string or looks a key up on a plain object trips on them (Elysia
 * 1.4.30 built a validation error's summary with `${value}`, which throws for `{"toString": 0}`:
 * a 500 until patches/elysia@1.4.30.patch). Drawn often, since random keys would never be these.
 */
const SHADOWING_KEYS = ["toString", "valueOf", "__proto__", "constructor", "hasOwnProperty"] as const;
const shadowing = fc.dictionary(fc.constantFrom(...SHADOWING_KEYS), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 2 });
export const junk = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: shadowing },
  { weight: 1, arbitrary: fc.array(shadowing, { minLength: 1, maxLength: 2 }) },
);
export const fieldName = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: fc.constantFrom(...SHADOWING_KEYS) });

export function valueOf(doc: any, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolveRef(doc, schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const variants = s.anyOf ?? s.oneOf;
  if (Array.isArray(variants)) {
    const { anyOf: _a, oneOf: _o, ...outer } = s;
    return fc.oneof(...variants.map((v: Schema) => valueOf(doc, { ...outer, ...v }, depth)));
  }
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type: string) => valueOf(doc, { ...s, type }, depth)));
  switch (s.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? Math.max(1000, s.minimum ?? 0) });
    case "number":
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? Math.max(1000, s.minimum ?? 0), noNaN: true, noDefaultInfinity: true });
    case "string": {
      const minLength = s.minLength ?? 0;
      return fc.string({ minLength, maxLength: Math.min(s.maxLength ?? minLength + 20, minLength + 20) });
    }
    case "array": {
      const minLength = s.minItems ?? 0;
      const maxLength = depth >= MAX_DEPTH ? minLength : Math.min(s.maxItems ?? minLength + 3, minLength + 3);
      return fc.array(s.items ? valueOf(doc, s.items, depth + 1) : junk, { minLength, maxLength });
    }
    case "object":
      return objectOf(doc, s, depth);
  }
  return junk;
}

function objectOf(doc: any, s: Schema, depth: number): fc.Arbitrary<unknown> {
  const required: string[] = s.required ?? [];
  const properties: Record<string, Schema> = s.properties ?? {};
  const names = Object.keys(properties).filter((name) => depth < MAX_DEPTH || required.includes(name));
  if (names.length === 0 && s.additionalProperties && typeof s.additionalProperties === "object")
    return fc.dictionary(fieldName, valueOf(doc, s.additionalProperties, depth + 1), { maxKeys: 3 });
  const model = Object.fromEntries(names.map((name) => [name, valueOf(doc, properties[name]!, depth + 1)]));
  return fc.record(model, { requiredKeys: required.filter((name) => names.includes(name)) });
}

type Mutation = { at: number; kind: "replace" | "delete" | "add"; junk: unknown; key: string };

/** Every object and array inside a value, outermost first. */
function containers(value: unknown): Array<Record<string, unknown> | unknown[]> {
  if (typeof value !== "object" || value === null) return [];
  const inner = Object.values(value).flatMap(containers);
  return [value as Record<string, unknown>, ...inner];
}

function mutated(value: unknown, m: Mutation): unknown {
  const copy = structuredClone(value);
  const all = containers(copy);
  if (all.length === 0) return m.junk;
  const target = all[m.at % all.length]!;
  const keys = Object.keys(target);
  const key = keys.length > 0 ? keys[m.at % keys.length]! : m.key;
  if (Array.isArray(target)) {
    if (m.kind === "delete") target.splice(Number(key), 1);
    else target[Number(key) || 0] = m.junk;
  } else if (m.kind === "delete") delete target[key];
  else target[m.kind === "add" ? m.key : key] = m.junk;
  return copy;
}

/** A value of the schema, sometimes with one part replaced, removed or added. */
export function nearValueOf(doc: any, schema: Schema): fc.Arbitrary<unknown> {
  const mutation = fc.record({ at: fc.nat(), kind: fc.constantFrom("replace" as const, "delete" as const, "add" as const), junk, key: fieldName });
  return fc.oneof(
    { weight: 1, arbitrary: valueOf(doc, schema) },
    { weight: 3, arbitrary: fc.tuple(valueOf(doc, schema), mutation).map(([value, m]) => mutated(value, m)) },
  );
}
