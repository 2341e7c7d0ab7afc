/**
 * SSE bodies read back the way a client reads them: eventsource-parser, which follows the
 * WHATWG server-sent events parsing rules (https://html.spec.whatwg.org/multipage/server-sent-events.html):
 * comments are dropped, several `data:` lines of one event are joined with "\n", and an event is
 * dispatched at the blank line that ends it.
 */
import { createParser } from "eventsource-parser";
import type { SseEvent } from "../../src/ir/codec";

/**
 * What every event of a body must look like, where its format fixes that: OpenAI Chat Completions
 * writes bare `data:` frames; Responses and Anthropic Messages name each event with an `event:`
 * line. With "data-only" or "named", a comment, a line that is no SSE field, or an event of the
 * other kind throws; "any" accepts what a client accepts.
 */
export type SseFraming = "any" | "data-only" | "named";

/** The events of an SSE body, each `{event?, data}` (`event` only when the body named it). */
export function parseSse(text: string, framing: SseFraming = "any"): SseEvent[] {
  const events: SseEvent[] = [];
  const strict = framing !== "any";
  const parser = createParser({
    onEvent(e) {
      if (framing === "data-only" && e.event !== undefined) throw new Error(`not a data frame: event ${e.event} ${e.data}`);
      if (framing === "named" && e.event === undefined) throw new Error(`an event without a name: ${e.data}`);
      events.push(e.event === undefined ? { data: e.data } : { event: e.event, data: e.data });
    },
    onComment(comment) {
      if (strict) throw new Error(`a comment in a ${framing} body: ${comment}`);
    },
    onError(error) {
      if (strict) throw error;
    },
  });
  parser.feed(text);
  return events;
}

/** The events of an SSE body with their data parsed as JSON. */
export function sseJsonEvents(text: string, framing: SseFraming = "any"): Array<{ event?: string; data: any }> {
  return parseSse(text, framing).map((e) => ({ ...e, data: JSON.parse(e.data) }));
}

/** The JSON payloads of an SSE body, the chat `[DONE]` sentinel left out. */
export function sseJson(text: string, framing: SseFraming = "any"): any[] {
  return parseSse(text, framing)
    .filter((e) => e.data !== "[DONE]")
    .map((e) => JSON.parse(e.data));
}
