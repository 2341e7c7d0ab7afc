import { retryAfterSeconds } from "../../retry-after";
import { answered } from "../answer-excerpt";
import type { HttpResult, ProbeResult, SendOutcome } from "../contract";

/** OTLP/HTTP's retryable statuses (opentelemetry-proto): everything else is final. */
const RETRYABLE = new Set([429, 502, 503, 504]);

/** `partialSuccess.rejectedSpans` of an ExportTraceServiceResponse (a string or a number in JSON); 0 when absent or unreadable. */
function rejectedSpans(body: Uint8Array): { rejected: number; message: string } {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(body)) as { partialSuccess?: { rejectedSpans?: unknown; errorMessage?: unknown } };
    const partial = parsed?.partialSuccess;
    const rejected = Number(partial?.rejectedSpans ?? 0);
    return { rejected: Number.isFinite(rejected) ? rejected : 0, message: typeof partial?.errorMessage === "string" ? partial.errorMessage : "" };
  } catch {
    return { rejected: 0, message: "" };
  }
}

/**
 * One export's outcome by OTLP's rules: 2xx is delivered unless a partial success rejected spans
 * (final: resending the same spans is rejected the same way); 429/502/503/504 and a connection
 * that gave no answer are tried again, after Retry-After when given; every other status and a
 * refused URL are final.
 */
export function exportOutcome(result: HttpResult, now: number): SendOutcome {
  if (result.kind === "refused") return { kind: "failed", reason: `the URL is refused: ${result.reason}` };
  if (result.kind === "failed") return { kind: "retry", reason: result.timedOut ? "timed out" : `no answer: ${result.reason}` };
  const { status, body, headers } = result;
  if (status >= 200 && status < 300) {
    const partial = rejectedSpans(body);
    if (partial.rejected > 0)
      return { kind: "failed", reason: `partial success: ${partial.rejected} span(s) rejected${partial.message ? `: ${partial.message}` : ""}` };
    return { kind: "delivered" };
  }
  if (RETRYABLE.has(status)) {
    const after = retryAfterSeconds(headers.get("retry-after"), now);
    return { kind: "retry", reason: answered(status, body), ...(after === undefined ? {} : { afterSeconds: after }) };
  }
  return { kind: "failed", reason: answered(status, body) };
}

/** The connection test's verdict: any 2xx passes; otherwise what the destination answered, with a hint for the usual causes. */
export function probeOutcome(result: HttpResult, url: string): ProbeResult {
  if (result.kind === "refused") return { ok: false, message: `the URL ${url} is refused: ${result.reason}` };
  if (result.kind === "failed") return { ok: false, message: `no answer from ${url}: ${result.timedOut ? "timed out" : result.reason}` };
  const { status, body } = result;
  if (status >= 200 && status < 300) return { ok: true };
  const hint = status === 401 || status === 403 ? " (the credentials were refused)" : status === 404 ? ` (nothing receives traces at ${url})` : "";
  return { ok: false, message: `the destination ${answered(status, body)}${hint}` };
}
