import type { SendOutcome } from "../contract";

/**
 * Bun.S3Client throws an error named `S3Error` whose `code` is S3's error code (from the XML
 * answer) or Bun's own for the connection (`ConnectionRefused`, `ConnectionClosed`); an answer
 * without an XML body leaves `UnknownError` and no status. These codes are worth another try:
 * S3 asking to slow down or failing inside, and the connection failing.
 */
const RETRYABLE_CODES = new Set([
  "SlowDown",
  "InternalError",
  "ServiceUnavailable",
  "RequestTimeout",
  "OperationAborted",
  "ConnectionRefused",
  "ConnectionClosed",
  "ConnectionTimeout",
  // no XML body, so no status to judge by: most often a proxy's 5xx; the retry schedule bounds it
  "UnknownError",
]);

export const s3ErrorCode = (error: unknown): string | null => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : null;
};

/** Credentials, permissions, a missing bucket or a bad request (403/404/400) fail; S3's 5xx and the network are retried. */
export function classifyS3Error(error: unknown): SendOutcome {
  const code = s3ErrorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const reason = `S3 ${code ?? "error"}: ${message}`;
  const isS3Error = error instanceof Error && error.name === "S3Error";
  // an error Bun did not name S3Error is the fetch underneath (DNS, TLS, reset): the network
  if (!isS3Error || (code !== null && RETRYABLE_CODES.has(code))) return { kind: "retry", reason };
  return { kind: "failed", reason };
}

/** The connection test's words for the usual mistakes. */
export function s3ProbeMessage(error: unknown): string {
  const code = s3ErrorCode(error);
  if (code === "NoSuchBucket") return "the bucket does not exist";
  if (code === "AccessDenied") return "access denied: the credentials need the s3:PutObject permission on the bucket";
  if (code === "InvalidAccessKeyId" || code === "SignatureDoesNotMatch") return "the access key id or secret access key is wrong";
  return `the bucket could not be written: ${code ?? ""} ${error instanceof Error ? error.message : String(error)}`.trim();
}
