import type { GenerationAttempt } from "../store/store";

export function wantsServiceMetadata(headers: Headers): boolean {
  const v = headers.get("x-service-experimental-metadata") ?? headers.get("x-openrouter-metadata") ?? headers.get("x-openrouter-experimental-metadata");
  return v?.toLowerCase() === "enabled";
}

export function serviceMetadata(o: {
  requested: string;
  model: string;
  provider: string | null;
  generationId: string;
  isByok: boolean;
  attempts: readonly GenerationAttempt[];
}): Record<string, unknown> {
  return {
    requested: o.requested,
    model: o.model,
    provider: o.provider,
    generation_id: o.generationId,
    is_byok: o.isByok,
    attempts: o.attempts.map((a) => ({ model: a.model, provider: a.provider, status: a.status, latency: a.latency })),
  };
}
