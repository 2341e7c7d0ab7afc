/** The parts of an OpenAPI document the builder rewrites, as loose JSON: it comes from a generator, not from our types. */
export type JsonObject = Record<string, unknown>;
export type Operation = JsonObject & {
  description?: string;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, JsonObject>;
};
export type Document = JsonObject & { paths: Record<string, Record<string, Operation>> };

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** The document with every operation replaced by what `rewrite` makes of it. */
export function mapOperations(doc: Document, rewrite: (operation: Operation, path: string, method: string) => Operation): Document {
  const paths = Object.fromEntries(
    Object.entries(doc.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => [
          method,
          (HTTP_METHODS as readonly string[]).includes(method) ? rewrite(operation, path, method) : operation,
        ]),
      ),
    ]),
  );
  return { ...doc, paths };
}
