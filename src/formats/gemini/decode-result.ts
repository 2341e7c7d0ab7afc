import { UpstreamFormatError } from "../../ir/codec";
import type { IRAssistantPart, IRResult } from "../../ir/types";
import { isJsonObject } from "../json-object";
import { BLOCKED_PROMPT, decodeFinishReason } from "./finish-reason";
import { argumentsText, toolCallId } from "./tool-call-id";
import { decodeUsage } from "./usage";
import type { WirePart, WireResponse } from "./wire";

const signaturePart = (signature: string, id?: string): IRAssistantPart =>
  id === undefined
    ? { type: "reasoning", text: "", encrypted: signature, origin: "gemini" }
    : { type: "reasoning", text: "", encrypted: signature, id, origin: "gemini" };

/**
 * One answer part → IR parts. A thought is reasoning; a signature becomes a reasoning part of its
 * own (thought-signatures.ts), named after the call it came on. Parts the IR has no place for
 * (generated images, executed code) are left out.
 */
function decodePart(part: WirePart): IRAssistantPart[] {
  const signature = typeof part.thoughtSignature === "string" && part.thoughtSignature !== "" ? part.thoughtSignature : undefined;
  if (isJsonObject(part.functionCall)) {
    const id = toolCallId(part.functionCall.id);
    const call: IRAssistantPart = {
      type: "tool_call",
      id,
      name: typeof part.functionCall.name === "string" ? part.functionCall.name : "",
      arguments: argumentsText(part.functionCall.args),
    };
    return signature === undefined ? [call] : [signaturePart(signature, id), call];
  }
  const text = typeof part.text === "string" ? part.text : "";
  if (part.thought === true) {
    const reasoning: IRAssistantPart = { type: "reasoning", text, origin: "gemini" };
    if (signature !== undefined) reasoning.encrypted = signature;
    return text === "" && signature === undefined ? [] : [reasoning];
  }
  const parts: IRAssistantPart[] = text === "" ? [] : [{ type: "text", text }];
  return signature === undefined ? parts : [...parts, signaturePart(signature)];
}

/** Neighbouring text parts, and neighbouring thoughts without a signature, read as one. */
function merged(parts: IRAssistantPart[]): IRAssistantPart[] {
  const out: IRAssistantPart[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last?.type === "text" && part.type === "text") out[out.length - 1] = { type: "text", text: last.text + part.text };
    else if (
      last?.type === "reasoning" &&
      part.type === "reasoning" &&
      last.encrypted === undefined &&
      last.id === undefined &&
      part.id === undefined &&
      last.origin === part.origin
    ) {
      out[out.length - 1] = { ...part, text: last.text + part.text };
    } else out.push(part);
  }
  return out;
}

/** A generateContent answer → IR result. */
export function decodeResult(body: unknown): IRResult {
  if (!isJsonObject(body)) throw new UpstreamFormatError("Gemini response is not a JSON object");
  const response = body as WireResponse;
  const candidate = Array.isArray(response.candidates) ? response.candidates[0] : undefined;
  const blocked = response.promptFeedback?.blockReason;
  if (!isJsonObject(candidate) && typeof blocked !== "string") throw new UpstreamFormatError("Gemini response has no candidates");
  const wireParts = Array.isArray(candidate?.content?.parts) ? candidate.content.parts.filter(isJsonObject) : [];
  const content = merged(wireParts.flatMap((part) => decodePart(part as WirePart)));
  const native = candidate?.finishReason ?? blocked ?? null;
  return {
    id: typeof response.responseId === "string" ? response.responseId : "",
    model: typeof response.modelVersion === "string" ? response.modelVersion : "",
    content,
    finishReason: candidate
      ? decodeFinishReason(
          candidate.finishReason,
          content.some((p) => p.type === "tool_call"),
        )
      : BLOCKED_PROMPT,
    nativeFinishReason: native,
    usage: decodeUsage(response.usageMetadata),
  };
}
