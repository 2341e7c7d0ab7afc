import type { EncodeContext, IRErrorPart, SseEvent, StreamWriter } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRFinishPart, IRStreamPart } from "../../ir/types";
import { eventObject, isJsonObject } from "../json-object";
import { withServiceMetadata } from "../service-metadata";
import { sseFrame } from "../sse-frame";
import { settledMessageDelta, streamErrorEvent } from "./encode-stream";
import { encodeSettledUsage } from "./usage";

/**
 * Same-format Messages stream: every upstream event goes out as it arrives, byte for byte, but
 * message_start (the gateway's id and model; the upstream's own usage stays). message_delta and
 * message_stop are held back until the generation is recorded, then written with the usage the
 * gateway charged.
 */

type Held = { type: string; event: SseEvent };

const ENDS_ANSWER: ReadonlySet<string> = new Set(["message_delta", "message_stop"]);

class MessagesPassthroughStream implements StreamWriter {
  private held: Held[] = [];
  private done = false;

  constructor(private readonly ctx: EncodeContext) {}

  write(event: SseEvent | null, parts: readonly IRStreamPart[]): string {
    if (this.done || event === null) return "";
    // an upstream error event is written by error
    if (parts.some((part) => part.type === "error")) return "";
    // Anthropic clients drop events without an `event:` line
    const type = event.event ?? eventObject(event)?.type;
    if (typeof type !== "string") return "";
    if (this.held.length > 0 || ENDS_ANSWER.has(type) || parts.some((part) => part.type === "finish")) {
      this.held.push({ type, event });
      return "";
    }
    return type === "message_start" ? this.messageStart(event) : sseFrame(event.data, type);
  }

  finish(part: IRFinishPart, settlement: Settlement): string {
    if (this.done) return "";
    this.done = true;
    let delta = false;
    let stop = false;
    const held = this.held.map(({ type, event }) => {
      if (type === "message_delta") {
        delta = true;
        return sseFrame(JSON.stringify({ ...eventObject(event), usage: encodeSettledUsage(part.usage, settlement) }), type);
      }
      if (type === "message_stop") {
        stop = true;
        return sseFrame(JSON.stringify({ ...eventObject(event), ...withServiceMetadata(settlement) }), type);
      }
      return sseFrame(event.data, type);
    });
    const messageStop = stop ? "" : sseFrame(JSON.stringify({ type: "message_stop", ...withServiceMetadata(settlement) }), "message_stop");
    return (delta ? "" : settledMessageDelta(part, settlement)) + held.join("") + messageStop;
  }

  error(part: IRErrorPart): string {
    if (this.done) return "";
    this.done = true;
    return this.held.map(({ type, event }) => sseFrame(event.data, type)).join("") + streamErrorEvent(part);
  }

  private messageStart(event: SseEvent): string {
    const data = eventObject(event);
    if (!data || !isJsonObject(data.message)) return sseFrame(event.data, "message_start");
    return sseFrame(JSON.stringify({ ...data, message: { ...data.message, id: this.ctx.generationId, model: this.ctx.model } }), "message_start");
  }
}

export const createMessagesPassthroughStream = (ctx: EncodeContext): StreamWriter => new MessagesPassthroughStream(ctx);
