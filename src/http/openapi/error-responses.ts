import { t } from "elysia";
import { keyKindOf } from "./security";
import { isObject, type JsonObject, type Operation } from "./walk";

/** The standard error body (errors.ts): HTTP status = `code`. */
export const ErrorBodySchema = t.Object(
  { error: t.Object({ code: t.Integer(), message: t.String(), metadata: t.Optional(t.Record(t.String(), t.Unknown())) }) },
  { description: "The standard error body; `error.code` equals the HTTP status, and for a bad field `error.metadata.field` names it" },
);

export const STANDARD_ERROR_REF = "#/components/schemas/Error";

const DESCRIPTIONS: Record<string, string> = {
  "400": "Bad request: the message and `metadata.field` name the field at fault",
  "401": "Missing, unknown, disabled or expired key",
  "403": "The key is of the wrong kind for this operation",
  "404": "Not found",
  "413": "Request body too large",
  "415": "The body is not JSON: send it with content-type: application/json",
  "500": "Internal error",
};

const isError = (status: string) => /^[45]/.test(status);

/** Vendor extension of an operation that can answer 409: what conflicts (a route adds it with `conflictDetail`). */
export const CONFLICT = "x-conflict";

/** For a route's `detail`: the operation answers 409 when `what` (documented with the other errors). */
export const conflictDetail = (what: string): Record<string, string> => ({ [CONFLICT]: what });

const conflictOf = (operation: Operation): string | undefined => (typeof operation[CONFLICT] === "string" ? (operation[CONFLICT] as string) : undefined);

/** The error statuses an operation can answer, from what it takes and who may call it. */
function errorStatuses(operation: Operation): string[] {
  const statuses = ["500"];
  const params = operation.parameters ?? [];
  const body = operation.requestBody !== undefined;
  if (params.length > 0 || body) statuses.push("400");
  if (body) statuses.push("413", "415");
  if (params.some((p) => p.in === "path")) statuses.push("404");
  const kind = keyKindOf(operation);
  if (kind) statuses.push("401");
  if (kind === "management" || kind === "inference") statuses.push("403");
  if (conflictOf(operation)) statuses.push("409");
  return statuses;
}

/** The body an operation's errors come in: the one it documents itself (/messages: Anthropic's), else the standard one. */
function errorContent(responses: Record<string, JsonObject>): JsonObject {
  const own = Object.entries(responses).find(([status, r]) => isError(status) && isObject(r.content));
  return own ? (own[1].content as JsonObject) : { "application/json": { schema: { $ref: STANDARD_ERROR_REF } } };
}

/** The operation with every error it can answer documented; responses it declares itself are kept. */
export function withErrorResponses(operation: Operation): Operation {
  const responses = operation.responses ?? {};
  const content = errorContent(responses);
  const added = Object.fromEntries(
    errorStatuses(operation)
      .filter((status) => !(status in responses))
      .map((status): [string, JsonObject] => [status, { description: (status === "409" ? conflictOf(operation) : DESCRIPTIONS[status]) ?? "Error", content }]),
  );
  const sorted = Object.entries({ ...responses, ...added }).sort(([a], [b]) => a.localeCompare(b));
  return { ...operation, responses: Object.fromEntries(sorted) };
}
