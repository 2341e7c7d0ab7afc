import { VIDEO_APIS, type VideoApi } from "./adapters/adapter";

/** A provider `api` that names an upstream video API rather than a chat format. */
/**
 * What an upstream video API can carry at all, whatever a model's configuration claims: the
 * OpenAI-shaped API takes one first-frame image and no references, so a request with a last frame
 * or input references is a 400 at once instead of a job that fails when it is submitted.
 */
export const API_CARRIES: Record<VideoApi, { lastFrame: boolean; inputReferences: boolean }> = {
  "openai-videos": { lastFrame: false, inputReferences: false },
  "fal-queue": { lastFrame: true, inputReferences: true },
  replicate: { lastFrame: true, inputReferences: true },
  "gemini-veo": { lastFrame: true, inputReferences: true },
};

export const isVideoApi = (api: string): api is VideoApi => (VIDEO_APIS as readonly string[]).includes(api);
