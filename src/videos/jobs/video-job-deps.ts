import type { Config } from "../../config";
import type { SecretBox } from "../../crypto/secret-box";
import type { FallbackDeps } from "../../gateway/generation-job";
import type { Logger } from "../../logger";
import type { Store } from "../../store/store";
import type { VideoAdapter, VideoApi, VideoTarget } from "../adapters/adapter";
import type { VideoStorage } from "../storage/video-storage";
import type { VideoCatalog, VideoEndpoint } from "../video-catalog";

/** What the video job kinds run with; adapters are injected so tests may swap one. */
export type VideoJobDeps = {
  store: Store;
  config: Pick<Config, "videos">;
  catalog: VideoCatalog;
  adapters: Partial<Record<VideoApi, VideoAdapter>>;
  storage: VideoStorage;
  logger: Logger;
  clock: () => number;
  /** see JobDeps.secrets: seals what observability forwards or keeps of a finished video */
  secrets?: SecretBox;
  /** see JobDeps.releaseReservation */
  releaseReservation?: (id: string) => void;
  /** the worker's own routing state: circuits of video endpoints live per worker */
  router: FallbackDeps["router"];
  telemetry: FallbackDeps["telemetry"];
};

export const VIDEO_SUBMIT = "video.submit";
export const VIDEO_POLL = "video.poll";
export const VIDEO_DEADLINE = "video.deadline";

/** The deadline bounds a video job, not an attempt count. */
export const VIDEO_MAX_ATTEMPTS = 1_000_000;

export const targetOf = (e: VideoEndpoint): VideoTarget => ({
  baseUrl: e.provider.baseUrl,
  apiKey: e.provider.apiKey ?? "",
  model: e.upstreamModel,
  headers: e.provider.headers,
});

export function videoIdOf(payload: unknown): string {
  const id = (payload as { video_id?: unknown } | null)?.video_id;
  if (typeof id !== "string") throw new Error("not a video job payload");
  return id;
}
