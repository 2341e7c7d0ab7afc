/**
 * Video generation jobs (issue 17): one row per POST /api/v1/videos, moved forward by the video
 * job kinds. Every change is a compare-and-set on `version`, so two workers that raced on a job
 * never both apply a transition; which transitions are allowed is decided by src/videos/jobs/.
 */

export type VideoJobStatus = "pending" | "in_progress" | "completed" | "failed" | "cancelled" | "expired";

export const VIDEO_JOB_STATUSES: readonly VideoJobStatus[] = ["pending", "in_progress", "completed", "failed", "cancelled", "expired"];

/** One output copied into the gateway's storage: a file of `bytes` under the video storage folder. */
export type VideoOutputRecord = { index: number; path: string; contentType: string; bytes: number };

export type VideoJobRecord = {
  id: string;
  generationId: string;
  workspaceId: string;
  keyHash: string;
  userId: string | null;
  model: string;
  status: VideoJobStatus;
  /** bumped by every transition */
  version: number;
  /** JSON: the normalized request and the candidate endpoint ids, as the submit job reads them */
  request: unknown;
  callbackUrl: string | null;
  reservationId: string | null;
  /** the endpoint that accepted the job, and the adapter's reference to find it again (JSON) */
  endpointId: string | null;
  upstreamRef: Readonly<Record<string, string>> | null;
  outputs: VideoOutputRecord[];
  costNanos: number | null;
  isByok: boolean;
  errorMessage: string | null;
  createdAt: number;
  updatedAt: number;
  /** a job not terminal by then fails */
  deadlineAt: number;
  completedAt: number | null;
};

export type VideoJobPatch = Partial<
  Pick<VideoJobRecord, "status" | "endpointId" | "upstreamRef" | "outputs" | "costNanos" | "isByok" | "errorMessage" | "completedAt">
>;

export interface VideoJobStore {
  create(job: VideoJobRecord): Promise<void>;
  get(id: string): Promise<VideoJobRecord | undefined>;
  /** the jobs of one workspace, newest first (the console's list) */
  list(workspaceId: string, offset: number, limit: number): Promise<VideoJobRecord[]>;
  /** the jobs not ended yet (pending, in progress) that hold a reservation, oldest first */
  holdingReservations(): Promise<VideoJobRecord[]>;
  /** applies `patch` and bumps the version only while the stored version is `version`; the updated job, or undefined when it moved on */
  update(id: string, version: number, patch: VideoJobPatch, now: number): Promise<VideoJobRecord | undefined>;
}
