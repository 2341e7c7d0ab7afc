import type { JobKind } from "../../jobs/registry";
import { deleteOutputs } from "../storage/video-storage";
import { VIDEO_EXPIRE } from "./finish";
import { type VideoJobDeps, videoIdOf } from "./video-job-deps";
import { enqueueVideoWebhook } from "./video-webhook";

/** At the end of retention: the stored outputs are deleted and the job becomes expired (with its webhook). */
export function videoExpireKind(deps: VideoJobDeps): JobKind {
  return {
    kind: VIDEO_EXPIRE,
    async run(payload) {
      const job = await deps.store.videoJobs.get(videoIdOf(payload));
      if (!job || job.status !== "completed") return;
      await deleteOutputs(
        deps.storage,
        job.id,
        job.outputs.map((o) => o.path),
      );
      const now = deps.clock();
      const workspace = await deps.store.workspaces.find(job.workspaceId);
      await deps.store.transaction(async (tx) => {
        const expired = await tx.videoJobs.update(job.id, job.version, { status: "expired", outputs: [] }, now);
        if (expired) await enqueueVideoWebhook(tx, expired, workspace?.webhookUrl ?? null, now);
      });
    },
  };
}
