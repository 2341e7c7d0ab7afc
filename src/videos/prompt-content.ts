import type { PolicyContent } from "../gateway/policy";
import type { StoredVideoRequest } from "./stored-request";

type VideoParams = StoredVideoRequest["params"];

/**
 * What the guardrails' content filters screen of a video request: its prompt, a user's text
 * (redacted, it is what the job sends upstream). Frame images and input references are media,
 * which no text filter reads, as in a chat request's image parts; passthrough parameters are
 * provider settings, forwarded as sent.
 */
export function videoPromptContent(params: VideoParams): PolicyContent<VideoParams> {
  return {
    request: params,
    mapText(p, edit) {
      const prompt = edit(p.prompt, { role: "user", part: "text" });
      return prompt === p.prompt ? p : { ...p, prompt };
    },
  };
}
