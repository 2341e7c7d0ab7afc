import type { SseEvent } from "../../ir/codec";
import { parseEventData } from "../json-object";

/**
 * ConverseStream answers in AWS's binary event stream (`application/vnd.amazon.eventstream`);
 * each message has headers and a JSON payload. The API's reader decodes the frames and hands each
 * message on as an `SseEvent` named here, so the decoder reads one shape whatever the framing:
 * an event by its `:event-type`, an exception as `exception:<:exception-type>`, a protocol error
 * as `error:<:error-code>` (https://docs.aws.amazon.com/transcribe/latest/dg/event-stream.html).
 */

/** A decoded frame's headers, as @smithy's codec gives them (only string values are read). */
export type FrameHeaders = Record<string, { type: string; value: unknown } | undefined>;

const header = (headers: FrameHeaders, name: string): string | undefined => {
  const value = headers[name]?.value;
  return typeof value === "string" ? value : undefined;
};

export const EXCEPTION_PREFIX = "exception:";
export const ERROR_PREFIX = "error:";

export function streamEventOf(headers: FrameHeaders, payload: string): SseEvent {
  const kind = header(headers, ":message-type") ?? "event";
  let event: string;
  let data = payload;
  if (kind === "exception") event = EXCEPTION_PREFIX + (header(headers, ":exception-type") ?? "unknown");
  else if (kind === "error") {
    event = ERROR_PREFIX + (header(headers, ":error-code") ?? "unknown");
    data = JSON.stringify({ message: header(headers, ":error-message") ?? "" });
  } else event = header(headers, ":event-type") ?? "";
  const json = parseEventData(data);
  return json === undefined ? { event, data } : { event, data, json };
}
