import type { VideoAdapter, VideoApi } from "./adapter";
import { openAiVideosAdapter } from "./openai-videos";

/** The adapter of each video API that has one; an endpoint whose API has none cannot serve. */
export const videoAdapters: Partial<Record<VideoApi, VideoAdapter>> = {
  "openai-videos": openAiVideosAdapter,
};
