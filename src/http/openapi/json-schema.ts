import { isObject, type JsonObject } from "./walk";

/**
 * TypeBox schemas as Elysia hands them to the generator, rewritten as OpenAPI 3.1 JSON Schema:
 * - Elysia pairs every t.Integer / t.Numeric with a numeric-string twin (`{type: "string",
 *   format: "integer"}`) so query strings and forms coerce; JSON carries numbers, so the document
 *   keeps the number alone.
 * - t.Nullable says `nullable: true`, which OpenAPI 3.1 dropped: null is a type (`type: [.., "null"]`).
 */

/** Values, not schemas: left as they are. */
const LITERAL_KEYWORDS = new Set(["const", "default", "enum", "example", "examples"]);

const isNumericTwin = (schema: unknown) => isObject(schema) && schema.type === "string" && (schema.format === "integer" || schema.format === "numeric");
const isNumber = (schema: unknown) => isObject(schema) && (schema.type === "integer" || schema.type === "number");

function withoutNumericTwin(schema: JsonObject): JsonObject {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || !anyOf.some(isNumericTwin) || !anyOf.some(isNumber)) return schema;
  const { anyOf: _, ...outer } = schema;
  const rest = anyOf.filter((v) => !isNumericTwin(v));
  return rest.length === 1 ? { ...outer, ...(rest[0] as JsonObject) } : { ...outer, anyOf: rest };
}

function admittingNull(schema: JsonObject): JsonObject {
  // the generator folds literal unions into `enum`, which must then list null as well
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return admittingNull({ ...schema, enum: [...schema.enum, null] });
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.type)) return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  if (Array.isArray(schema.anyOf))
    return schema.anyOf.some((v) => isObject(v) && v.type === "null") ? schema : { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  return { anyOf: [schema, { type: "null" }] };
}

function withoutNullableKeyword(schema: JsonObject): JsonObject {
  if (typeof schema.nullable !== "boolean") return schema;
  const { nullable, ...rest } = schema;
  return nullable ? admittingNull(rest) : rest;
}

/** Any part of the document with every schema in it rewritten. */
export function toJsonSchema31(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema31);
  if (!isObject(value)) return value;
  const rewritten = withoutNullableKeyword(withoutNumericTwin(value));
  return Object.fromEntries(Object.entries(rewritten).map(([key, v]) => [key, LITERAL_KEYWORDS.has(key) ? v : toJsonSchema31(v)]));
}
