import type { InboundStreamEncoder, StreamWriter } from "../ir/codec";

/** A translated stream: every part up to the end part goes through the client format's encoder as it comes. */
export function encoderWriter(encoder: InboundStreamEncoder): StreamWriter {
  return {
    write(_event, parts) {
      let sse = "";
      for (const part of parts) {
        if (part.type === "finish" || part.type === "error") break;
        sse += encoder.encode(part);
      }
      return sse;
    },
    finish: (part, settlement) => encoder.finish(part, settlement),
    error: (part) => encoder.encode(part),
  };
}
