import { VIDEO_APIS, type VideoApi } from "./adapters/adapter";

/** A provider `api` that names an upstream video API rather than a chat format. */
export const isVideoApi = (api: string): api is VideoApi => (VIDEO_APIS as readonly string[]).includes(api);
