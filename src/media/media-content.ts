import type { PolicyContent } from "../gateway/policy";
import type { ImageRequest } from "./image-request";
import type { MediaCallerFields } from "./request-fields";
import type { RerankRequest } from "./rerank-request";
import type { SpeechRequest } from "./speech-request";
import type { TranscriptionRequest } from "./transcription-request";

/**
 * What the guardrails' content filters screen of each media request: the text a user wrote that
 * goes upstream, redacted there when a filter says so. Audio, images and sizes, voices, formats are
 * media or settings, which no text filter reads. Passthrough parameters are provider settings,
 * forwarded as sent, except those that are a user's text (speech `instructions`, a transcription's
 * `prompt`): those are screened wherever a `provider.options.<slug>` block carries them.
 */

const USER = { role: "user", part: "text" } as const;
/** speech instructions steer the voice as a system prompt steers a model; a `user_only` injection scan leaves them alone */
const SYSTEM = { role: "system", part: "text" } as const;

/** An image request's `prompt`. */
export function imageContent(body: ImageRequest): PolicyContent<ImageRequest> {
  return {
    request: body,
    mapText(b, edit) {
      const prompt = edit(b.prompt, USER);
      return prompt === b.prompt ? b : { ...b, prompt };
    },
  };
}

/** A speech request's `input`, and `instructions` passed through to a provider. */
export function speechContent(body: SpeechRequest): PolicyContent<SpeechRequest> {
  return {
    request: body,
    mapText(b, edit) {
      const input = edit(b.input, USER);
      const passed = mapPassthroughText(b, "instructions", (text) => edit(text, SYSTEM));
      return input === b.input ? passed : { ...passed, input };
    },
  };
}

/**
 * A transcription's `prompt` passed through to a provider (the SDK's STTRequest has no prompt of
 * its own). The audio is media: its bytes go upstream as the client sent them.
 */
export function transcriptionContent(req: TranscriptionRequest): PolicyContent<TranscriptionRequest> {
  return { request: req, mapText: (r, edit) => mapPassthroughText(r, "prompt", (text) => edit(text, USER)) };
}

/** A rerank request's `query` and every document's text (a `{text}` document keeps its shape). */
export function rerankContent(body: RerankRequest): PolicyContent<RerankRequest> {
  return {
    request: body,
    mapText(b, edit) {
      const query = edit(b.query, USER);
      let changed = query !== b.query;
      const documents = b.documents.map((d) => {
        const text = typeof d === "string" ? d : d.text;
        if (typeof text !== "string") return d;
        const screened = edit(text, USER);
        if (screened === text) return d;
        changed = true;
        return typeof d === "string" ? screened : { ...d, text: screened };
      });
      return changed ? { ...b, query, documents } : b;
    },
  };
}

type Block = Record<string, unknown>;

/** The request with the string `name` of every passthrough block (flat, or under `parameters`) passed through `edit`; unchanged: the same object. */
function mapPassthroughText<T extends MediaCallerFields>(body: T, name: string, edit: (text: string) => string): T {
  const options = body.provider?.options;
  if (!options) return body;
  let changed = false;
  const mapBlock = (block: Block): Block => {
    const value = block[name];
    if (typeof value !== "string") return block;
    const screened = edit(value);
    if (screened === value) return block;
    changed = true;
    return { ...block, [name]: screened };
  };
  const mapped = Object.fromEntries(
    Object.entries(options).map(([slug, block]) => {
      const flat = mapBlock(block);
      const nested = block.parameters;
      if (typeof nested !== "object" || nested === null || Array.isArray(nested)) return [slug, flat];
      const parameters = mapBlock(nested as Block);
      return [slug, parameters === nested ? flat : { ...flat, parameters }];
    }),
  );
  return changed ? { ...body, provider: { ...body.provider, options: mapped } } : body;
}
