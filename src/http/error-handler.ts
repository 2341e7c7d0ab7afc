import type { ValidationError } from "elysia";
import { GatewayError } from "../errors";
import { pointerToField } from "../json-pointer";
import type { Logger } from "../logger";
import { errorBodyFor } from "./error-format";
import { requestContext } from "./request-context";
import { explainFailure } from "./validation-message";

const fieldOf = (pointer: string) => pointerToField(pointer) || "(root)";

/** An error in the body the request's route renders errors with (error-format.ts). */
export function jsonError(request: Request, status: number, message: string, metadata?: Record<string, unknown>, headers?: Record<string, string>): Response {
  const body = errorBodyFor(request, status, message, metadata);
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** Elysia checks coerced query numbers one by one and loses their name ("property" errors); find it in the URL. */
function queryParamWithValue(request: Request, value: unknown): string | undefined {
  for (const [name, raw] of new URL(request.url).searchParams) if (raw === String(value)) return name;
  return undefined;
}

export function describeValidation(error: ValidationError, request: Request): { message: string; metadata: Record<string, unknown> } {
  const first = error.valueError;
  const lostQueryName = error.type === "property" && first !== undefined && first.path === "" ? queryParamWithValue(request, first.value) : undefined;
  const location = lostQueryName ? "query" : error.type;
  const where = location === "query" ? "query parameter" : location === "params" ? "path parameter" : location === "headers" ? "header" : "field";
  if (!first) return { message: `Invalid request ${error.type}`, metadata: { location } };
  const { pointer, problem } = explainFailure(lostQueryName ? { ...first, path: `/${lostQueryName}` } : first);
  const field = fieldOf(pointer);
  const message = problem === "is required" ? `Invalid ${where} '${field}' is required` : `Invalid ${where} '${field}': ${problem}`;
  return { message, metadata: { location, field } };
}

export function renderError(request: Request, code: string | number, error: unknown, logger: Logger): Response {
  // errors thrown by a parse hook arrive wrapped in Elysia's ParseError
  const cause = (error as { cause?: unknown })?.cause;
  if (code === "PARSE" && cause instanceof GatewayError) return jsonError(request, cause.status, cause.message, cause.metadata);
  if (error instanceof GatewayError) return jsonError(request, error.status, error.message, error.metadata, error.headers);
  switch (code) {
    case "VALIDATION": {
      const unreadable = (error as ValidationError).type === "body" ? requestContext(request).bodyError : undefined;
      if (unreadable) return jsonError(request, unreadable.status, unreadable.message);
      const { message, metadata } = describeValidation(error as ValidationError, request);
      return jsonError(request, 400, message, metadata);
    }
    case "NOT_FOUND":
      return jsonError(request, 404, `No route for ${request.method} ${new URL(request.url).pathname}`);
    case "PARSE":
      return jsonError(request, 400, "Request body is not valid JSON");
    case "INVALID_COOKIE_SIGNATURE":
      return jsonError(request, 400, "Invalid cookie");
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return jsonError(request, status, status === 413 ? "Request body too large" : (error as Error).message || "Bad request");
  }
  logger.error("unhandled error", { path: new URL(request.url).pathname, error: String(error), stack: (error as Error)?.stack });
  return jsonError(request, 500, "Internal server error");
}

/** What an error says of itself for the access log: a GatewayError's message and metadata (also one a parse hook threw); undefined otherwise. */
export function failureOf(error: unknown): { message: string; metadata?: Record<string, unknown> } | undefined {
  const cause = (error as { cause?: unknown })?.cause;
  const known = error instanceof GatewayError ? error : cause instanceof GatewayError ? cause : undefined;
  return known ? { message: known.message, metadata: known.metadata } : undefined;
}
