import type { IRStreamPart } from "../../ir/types";
import { apiErrorType } from "../api-error-type";

/** Chat clients get the gateway's standard body, OpenRouter's `{error: {code, message, metadata}}`. */
export { errorBody as chatErrorBody } from "../../errors";

/** The `error` of the chunk that ends a stream after the 200 went out; `code` must be an integer for SDKs to parse it. */
export function chatStreamError(part: Extract<IRStreamPart, { type: "error" }>) {
  return { code: part.status, message: part.message, metadata: { error_type: part.errorType ?? apiErrorType(part.status) } };
}

/** The HTTP status an upstream's in-band error chunk stands for: its integer `code`, else a bad gateway. */
export const statusOfChatStreamError = (code: unknown): number => (typeof code === "number" && Number.isInteger(code) ? code : 502);
