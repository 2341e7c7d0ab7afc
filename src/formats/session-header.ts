import { badRequest } from "../errors";

/** The longest session id accepted, in the body (SessionId schema) or the header. */
export const MAX_SESSION_ID = 256;

/**
 * The `x-session-id` header, held to the same limit as the body's `session_id`: the body is
 * checked by its schema, the header only here, so a long header must not slip through.
 */
export function sessionIdHeader(headers: Headers | undefined): string | undefined {
  const value = headers?.get("x-session-id") ?? undefined;
  if (value !== undefined && value.length > MAX_SESSION_ID) {
    throw badRequest(`Invalid header 'x-session-id': at most ${MAX_SESSION_ID} characters`, { field: "x-session-id" });
  }
  return value === "" ? undefined : value;
}
