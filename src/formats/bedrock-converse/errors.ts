import { upstreamErrorMessage } from "../error-message";
import { isJsonObject } from "../json-object";

/**
 * Bedrock's error body is `{"message": "…"}` (`Message` from some front ends), its type in the
 * `x-amzn-errortype` header. A signature mismatch appends the canonical request and the string
 * it signed after a blank line; those echo request headers (a session token among them), so only
 * the first paragraph is kept: it is what the client and the log line see.
 */
export function errorMessage(body: unknown): string | undefined {
  const raw = isJsonObject(body) ? (stringField(body.message) ?? stringField(body.Message) ?? upstreamErrorMessage(body)) : undefined;
  return raw === undefined ? undefined : firstParagraph(raw);
}

const stringField = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

export const firstParagraph = (message: string): string => message.split(/\r?\n\s*\r?\n/, 1)[0]!.trim();

/**
 * The HTTP status each ConverseStream exception stands for, as the Bedrock Runtime model gives
 * them (`@aws-sdk/client-bedrock-runtime`'s error shapes): a stream that fails with one falls
 * over or not as the same status would before the stream began.
 */
const EXCEPTION_STATUS: Readonly<Record<string, number>> = {
  internalServerException: 500,
  modelStreamErrorException: 424,
  validationException: 400,
  throttlingException: 429,
  serviceUnavailableException: 503,
  modelTimeoutException: 408,
  modelNotReadyException: 429,
  accessDeniedException: 403,
  resourceNotFoundException: 404,
  serviceQuotaExceededException: 400,
};

export const statusForException = (type: string): number => EXCEPTION_STATUS[type] ?? 502;
