import type { VideoJobStatus } from "../../store/video-job-store";

/** pending < in_progress < a terminal state; completed may still become expired. Nothing moves back. */
const RANK: Record<VideoJobStatus, number> = { pending: 0, in_progress: 1, completed: 2, failed: 2, cancelled: 2, expired: 3 };

export const isTerminal = (s: VideoJobStatus): boolean => RANK[s] >= 2;

export function canMove(from: VideoJobStatus, to: VideoJobStatus): boolean {
  if (to === "expired") return from === "completed";
  return RANK[to] > RANK[from];
}
