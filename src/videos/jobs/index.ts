import type { JobDeps } from "../../jobs/kinds/job-deps";
import type { JobKind } from "../../jobs/registry";
import { videoAdapters } from "../adapters";
import { videoStorageOf } from "../storage/video-storage";
import { buildVideoCatalog } from "../video-catalog";
import { videoDeadlineKind } from "./video-deadline";
import { videoExpireKind } from "./video-expire";
import type { VideoJobDeps } from "./video-job-deps";
import { videoPollKind } from "./video-poll";
import { videoSubmitKind } from "./video-submit";

/** The video lifecycle's job kinds over the worker's configuration. */
export function videoJobKinds(deps: JobDeps): JobKind[] {
  const video: VideoJobDeps = {
    ...deps,
    catalog: buildVideoCatalog(deps.config),
    adapters: videoAdapters({ config: deps.config }),
    storage: videoStorageOf(deps.config),
  };
  return [videoSubmitKind(video), videoPollKind(video), videoDeadlineKind(video), videoExpireKind(video)];
}
