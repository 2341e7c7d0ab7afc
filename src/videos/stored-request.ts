import type { HeldReservation } from "../store/store";
import type { VideoRequest } from "./adapters/adapter";

/**
 * What a video job row keeps of its request (`VideoJobRecord.request`): the validated parameters,
 * each provider's passthrough block as sent (only the serving provider's allow-listed names are
 * forwarded), the candidate endpoint ids in order, and the origin the client called, from which
 * the webhook's unsigned_urls are built.
 */
export type StoredVideoRequest = {
  params: Omit<VideoRequest, "passthrough"> & { durationSeconds: number; generateAudio: boolean };
  passthrough: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  candidates: readonly string[];
  origin: string;
  /** who asked, for the generation record (as inference records it) */
  caller?: VideoCaller;
  /** the guardrails' content filters that flagged the prompt, for the generation record */
  guardrailFlags?: readonly string[];
  /** what the job's reservation holds, to hold it again after a SQLite restart (src/videos/reservation-restore.ts) */
  reservation?: Omit<HeldReservation, "keyHash" | "workspaceId">;
};

export type VideoCaller = {
  sessionId: string | null;
  externalUser: string | null;
  trace: Record<string, unknown> | null;
  httpReferer: string | null;
  userAgent: string | null;
  appName: string;
};

export const storedRequestOf = (request: unknown): StoredVideoRequest => request as StoredVideoRequest;

/** The serving provider's block, allow-listed: `{parameters: {...}}` and flat names alike. */
export function passthroughFor(request: StoredVideoRequest, providerSlug: string, allowed: readonly string[]): Record<string, unknown> {
  const block = flatPassthrough(request.passthrough[providerSlug]);
  return Object.fromEntries(Object.entries(block).filter(([name]) => allowed.includes(name)));
}

/** `provider.options.<slug>` spelled `{parameters: {a: 1}}` or `{a: 1}`: both mean a = 1; `parameters` wins a clash. */
export function flatPassthrough(block: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  if (!block) return {};
  const { parameters, ...flat } = block;
  const nested = typeof parameters === "object" && parameters !== null && !Array.isArray(parameters) ? (parameters as Record<string, unknown>) : {};
  return { ...flat, ...nested };
}
