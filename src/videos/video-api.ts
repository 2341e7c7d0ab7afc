import { VIDEO_APIS, type VideoApi } from "./adapters/adapter";

/**
 * How an upstream API names the picture's shape: by a size alone ("WxH", the OpenAI shape:
 * aspect_ratio and resolution become one of its sizes), by aspect ratio and resolution (Veo, fal:
 * a size becomes them), or each field by its own name (Replicate: inputs are per model).
 */
export type ShapeFields = "size" | "aspect_ratio" | "as_given";

/**
 * What an upstream video API can carry at all, whatever a model's configuration claims: the
 * OpenAI-shaped API takes one first-frame image and no references, so a request with a last frame
 * or input references is a 400 at once instead of a job that fails when it is submitted.
 */
export const API_CARRIES: Record<VideoApi, { lastFrame: boolean; inputReferences: boolean; shape: ShapeFields }> = {
  "openai-videos": { lastFrame: false, inputReferences: false, shape: "size" },
  "fal-queue": { lastFrame: true, inputReferences: true, shape: "aspect_ratio" },
  replicate: { lastFrame: true, inputReferences: true, shape: "as_given" },
  "gemini-veo": { lastFrame: true, inputReferences: true, shape: "aspect_ratio" },
};

/** A provider `api` that names an upstream video API rather than a chat format. */
export const isVideoApi = (api: string): api is VideoApi => (VIDEO_APIS as readonly string[]).includes(api);
