/**
 * The operations of the gateway's own OpenAPI document, as the guards over every route read
 * them: a route added anywhere is in the document, so it is covered without editing a test.
 */
export type Schema = Record<string, any>;
export type KeyKind = "management" | "inference" | "any";
export type ErrorShape = "standard" | "anthropic";

export type Parameter = { name: string; in: "path" | "query" | "header"; required: boolean; schema: Schema };

export type ApiOperation = {
  method: string;
  /** the document's path, with {name} placeholders */
  path: string;
  /** undefined: a public operation */
  keyKind: KeyKind | undefined;
  parameters: Parameter[];
  body: Schema | undefined;
  /** the body its errors come in, as its documented error responses say */
  errorShape: ErrorShape;
  responses: Record<string, Schema>;
};

export async function fetchDocument(baseUrl: string): Promise<any> {
  const res = await fetch(`${baseUrl}/api/v1/openapi.json`);
  if (res.status !== 200) throw new Error(`openapi.json: ${res.status}`);
  return res.json();
}

function errorShapeOf(responses: Record<string, Schema>): ErrorShape {
  const schema = Object.entries(responses).find(([status]) => /^4/.test(status))?.[1]?.content?.["application/json"]?.schema;
  return schema?.properties?.type?.const === "error" ? "anthropic" : "standard";
}

export function operationsOf(doc: any): ApiOperation[] {
  const out: ApiOperation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      out.push({
        method: method.toUpperCase(),
        path,
        keyKind: op["x-key-kind"],
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.["application/json"]?.schema,
        errorShape: errorShapeOf(op.responses ?? {}),
        responses: op.responses ?? {},
      });
    }
  }
  return out;
}

/** `$ref`s into the document's components, resolved. */
export function resolveRef(doc: any, schema: Schema): Schema {
  if (typeof schema?.$ref !== "string") return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  return resolveRef(doc, doc.components.schemas[name]);
}

/** The path with each placeholder replaced (URL-encoded). */
export function fillPath(path: string, values: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values(name)));
}

/** What a 4xx looks like in the operation's error shape: the message, and the field it names when it names one. */
export function errorOf(shape: ErrorShape, status: number, body: any): { message: string; field?: string } | string {
  if (shape === "anthropic") {
    if (body?.type !== "error" || typeof body.error?.type !== "string" || typeof body.error?.message !== "string")
      return `not Anthropic's error shape: ${JSON.stringify(body)}`;
    return { message: body.error.message };
  }
  const e = body?.error;
  if (!e || e.code !== status || typeof e.message !== "string") return `not the standard error body with code ${status}: ${JSON.stringify(body)}`;
  return { message: e.message, field: e.metadata?.field };
}
