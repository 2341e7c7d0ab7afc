import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { type ApiOperation, errorOf, fetchDocument, fillPath, operationsOf } from "../../support/api-document";
import { ADMIN_KEY, createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { junk, nearValueOf, valueOf } from "../../support/schema-arbitrary";

/**
 * Every operation of the API document, driven by a caller who may call it with generated and
 * mutated bodies, queries, path parameters and headers: never a 5xx, never a stack trace, every
 * 4xx in the operation's error body (the standard one, /messages Anthropic's), and every 400
 * naming the field at fault in `metadata.field` (in the message, for Anthropic's body, which has
 * no metadata), or the body as a whole when it is not JSON.
 */
const RUNS_PER_OPERATION = 60;
let gw: TestGateway;
let doc: any;
let inferenceKey: string;

beforeAll(async () => {
  gw = await startTestGateway();
  doc = await fetchDocument(gw.url);
  inferenceKey = (await createInferenceKey(gw)).key;
});
afterAll(() => gw.close());

type Input = { path: string; query: string; body: string | undefined; headers: Record<string, string> };

const token = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-"), minLength: 1, maxLength: 12 });
const headerValue = fc.string({ unit: fc.constantFrom(..." !#$%&*+-./0123456789:;=?@ABCXYZ[]^_abcxyz{|}~"), maxLength: 30 });
const contentType = fc.option(
  fc.oneof(
    fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "application/x-www-form-urlencoded",
      "text/plain",
      "multipart/form-data; boundary=x",
    ),
    headerValue,
  ),
  { nil: undefined },
);
const stringified = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function inputOf(op: ApiOperation): fc.Arbitrary<Input> {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const anything = fc.oneof(fc.string({ maxLength: 20 }), junk);
  const path = fc
    .tuple(...pathParams.map((p) => fc.oneof(valueOf(doc, p.schema), anything)))
    .map((values) => fillPath(op.path, (name) => stringified(values[pathParams.findIndex((p) => p.name === name)])));
  const query = fc
    .tuple(
      fc.tuple(...queryParams.map((p) => fc.option(fc.oneof(valueOf(doc, p.schema), anything), { nil: undefined }))),
      fc.option(fc.tuple(token, headerValue), { nil: undefined }),
    )
    .map(([values, unknown]) => {
      const params = new URLSearchParams();
      values.forEach((v, i) => v !== undefined && params.append(queryParams[i]!.name, stringified(v)));
      if (unknown) params.append(...unknown);
      return params.size > 0 ? `?${params}` : "";
    });
  const body = op.body
    ? fc.oneof(
        { weight: 4, arbitrary: nearValueOf(doc, op.body).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
        { weight: 1, arbitrary: junk.map((v) => JSON.stringify(v)) },
      )
    : fc.constant(undefined);
  const headers = fc
    .tuple(
      contentType,
      fc.dictionary(
        token.map((name) => `x-${name}`),
        headerValue,
        { maxKeys: 3 },
      ),
    )
    .map(([type, extra]) => (type === undefined ? extra : { ...extra, "content-type": type }));
  return fc.record({ path, query, body, headers });
}

function keyFor(op: ApiOperation): string | null {
  if (!op.keyKind) return null;
  return op.keyKind === "inference" ? inferenceKey : ADMIN_KEY;
}

const STACK_TRACE = /\n\s+at |\.ts:\d+|node_modules|GatewayError|TypeError|ReferenceError/;

/** What is wrong with an answer; undefined when nothing is. */
function fault(op: ApiOperation, status: number, text: string): string | undefined {
  if (status >= 500) return `status ${status}`;
  if (STACK_TRACE.test(text)) return "a stack trace or internal name";
  if (status < 400) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "an error that is not JSON";
  }
  const error = errorOf(op.errorShape, status, body);
  if (typeof error === "string") return error;
  if (status !== 400 || error.message.startsWith("Request body ")) return undefined;
  if (op.errorShape === "standard") return error.field ? undefined : "a 400 naming no field in metadata.field";
  // Anthropic's body has no metadata: the message names the field, quoted or as the body's property it is
  const properties = Object.keys(op.body?.properties ?? {});
  return /'[^']+'/.test(error.message) || properties.some((name) => new RegExp(`\\b${name}\\b`).test(error.message)) ? undefined : "a 400 naming no field";
}

test(`every operation, ${RUNS_PER_OPERATION} generated requests each: no 5xx, no stack trace, every 4xx in its error body naming the field`, async () => {
  const operations = operationsOf(doc);
  const statuses = new Map<number, number>();
  for (const op of operations) {
    const key = keyFor(op);
    await fc.assert(
      fc.asyncProperty(inputOf(op), async (input) => {
        const headers = { ...input.headers, ...(key ? { authorization: `Bearer ${key}` } : {}) };
        const res = await fetch(`${gw.url}${input.path}${input.query}`, { method: op.method, headers, body: input.body });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const wrong = fault(op, res.status, text);
        if (wrong)
          throw new Error(
            `${op.method} ${op.path}: ${wrong}\n${input.path}${input.query} ${JSON.stringify(input.headers)}\n${input.body}\n-> ${res.status} ${text.slice(0, 500)}`,
          );
      }),
      { numRuns: RUNS_PER_OPERATION },
    );
  }
  // the generator reaches past validation, too: some requests succeed, most are refused
  expect(statuses.get(400) ?? 0).toBeGreaterThan(operations.length);
  expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
}, 120_000);
