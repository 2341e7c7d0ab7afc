import type { IRAssistantPart, IRResult, IRStreamPart } from "../../ir/types";

/**
 * An answer as the response cache keeps it: the model's output in the IR, format-free, so that
 * a hit can be written in whichever format and mode the request asks for (a streamed request
 * may hit an answer a JSON one stored, and the other way round). Only the fields a client
 * sees are kept: the content, finish reason, stop sequence and token counts, and who answered.
 */
export type CachedAnswer = {
  /** the shape's version: an entry of another version is not read */
  v: 1;
  /** the catalog model that answered */
  model: string;
  /** the provider that answered: its slug (the record) and display name (the body's `provider`) */
  provider: { slug: string; name: string };
  /** the endpoint that answered: a hit is served only while it may still serve the request */
  endpoint: string;
  result: Pick<IRResult, "id" | "content" | "finishReason" | "stopSequence" | "nativeFinishReason" | "usage">;
  /** the token counts were estimated (the upstream reported none) */
  usageEstimated: boolean;
};

/** What the candidate that served and its whole result make of an answer to keep. */
export function cachedAnswer(
  served: { model: { id: string }; endpoint: { id: string; provider: { slug: string; name: string } } },
  result: Pick<IRResult, "id" | "content" | "finishReason" | "stopSequence" | "nativeFinishReason" | "usage">,
  usageEstimated: boolean,
): CachedAnswer {
  const { slug, name } = served.endpoint.provider;
  const { id, content, finishReason, usage } = result;
  const kept: CachedAnswer["result"] = { id, content, finishReason, usage };
  if (result.stopSequence != null) kept.stopSequence = result.stopSequence;
  if (result.nativeFinishReason != null) kept.nativeFinishReason = result.nativeFinishReason;
  return { v: 1, model: served.model.id, provider: { slug, name }, endpoint: served.endpoint.id, result: kept, usageEstimated };
}

/** A stored answer read back; null when it is not one this version wrote (it is then a miss). */
export function readCachedAnswer(text: string): CachedAnswer | null {
  try {
    const parsed = JSON.parse(text) as Partial<CachedAnswer> | null;
    if (parsed?.v !== 1 || typeof parsed.model !== "string" || !parsed.provider || !parsed.result || !Array.isArray(parsed.result.content)) return null;
    return parsed as CachedAnswer;
  } catch {
    return null;
  }
}

/** The assistant parts of a stream, folded as they go by into whole parts (a streamed answer to keep). */
export class StreamedAnswer {
  private readonly parts: IRAssistantPart[] = [];
  private readonly byIndex = new Map<number, IRAssistantPart>();

  observe(part: IRStreamPart): void {
    switch (part.type) {
      case "block-start": {
        const b = part.block;
        const made: IRAssistantPart =
          b.type === "text"
            ? { type: "text", text: "" }
            : b.type === "refusal"
              ? { type: "refusal", refusal: "" }
              : b.type === "tool_call"
                ? { type: "tool_call", id: b.id, name: b.name, arguments: "" }
                : {
                    type: "reasoning",
                    text: "",
                    origin: b.origin,
                    ...(b.id === undefined ? {} : { id: b.id }),
                    ...(b.summary ? { summary: true } : {}),
                    ...(b.redacted ? { redacted: true } : {}),
                    ...(b.encrypted === undefined ? {} : { encrypted: b.encrypted }),
                  };
        this.byIndex.set(part.index, made);
        this.parts.push(made);
        return;
      }
      case "text-delta":
      case "reasoning-delta": {
        const open = this.byIndex.get(part.index);
        if (open?.type === "text" || open?.type === "reasoning") open.text += part.text;
        return;
      }
      case "refusal-delta": {
        const open = this.byIndex.get(part.index);
        if (open?.type === "refusal") open.refusal += part.text;
        return;
      }
      case "tool-args-delta": {
        const open = this.byIndex.get(part.index);
        if (open?.type === "tool_call") open.arguments += part.delta;
        return;
      }
      case "reasoning-signature": {
        const open = this.byIndex.get(part.index);
        if (open?.type === "reasoning") open.signature = part.signature;
        return;
      }
      case "reasoning-encrypted": {
        const open = this.byIndex.get(part.index);
        if (open?.type === "reasoning") open.encrypted = part.data;
        return;
      }
      default:
        return;
    }
  }

  /** the answer's parts, empty text and refusal blocks left out */
  content(): IRAssistantPart[] {
    return this.parts.filter((p) => !(p.type === "text" && p.text === "") && !(p.type === "refusal" && p.refusal === ""));
  }
}
