/**
 * Observability forwarding for end-to-end tests, loaded into the job workers through
 * `jobModules` until the destination store and the real senders are wired
 * (src/observability/wiring.ts). Destinations are read afresh on every call from the JSON file
 * DESTINATIONS_FILE in the gateway's data directory (the test edits it to disable or delete one;
 * a worker thread does not see environment variables set after the process started). Every destination,
 * whatever its type, is sent by one loopback sender: a POST of the generation to `config.url`
 * through the gateway's real outbound client (SenderDeps.http), classified like the OTLP senders
 * (2xx delivered, 429/5xx retried with Retry-After, anything else failed).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../src/config";
import type { JobDeps } from "../../src/jobs/kinds/job-deps";
import type { DestinationTargets } from "../../src/observability/capture/destination-targets";
import type { Destination, DestinationSender } from "../../src/observability/contract";
import type { ObservabilityParts } from "../../src/observability/jobs/parts";

export const DESTINATIONS_FILE = "observability-destinations.json";

function destinations(file: string): Destination[] {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Destination[];
  } catch {
    return [];
  }
}

const loopbackSender = (type: Destination["type"]): DestinationSender => ({
  type,
  configKeys: [{ key: "url", required: true, url: true }],
  probe: async () => ({ ok: true }),
  async send(generation, destination, deps) {
    const body = JSON.stringify({ destination: destination.id, generation });
    const res = await deps.http({
      url: String(destination.config.url),
      method: "POST",
      headers: { "content-type": "application/json", ...destination.config.headers },
      body,
    });
    if (res.kind === "refused") return { kind: "failed", reason: `refused: ${res.reason}` };
    if (res.kind === "failed") return { kind: "retry", reason: res.reason };
    if (res.status >= 200 && res.status < 300) return { kind: "delivered" };
    const after = Number(res.headers.get("retry-after"));
    if (res.status === 429 || res.status >= 500)
      return { kind: "retry", reason: `HTTP ${res.status}`, ...(Number.isFinite(after) && after > 0 ? { afterSeconds: after } : {}) };
    return { kind: "failed", reason: `HTTP ${res.status}` };
  },
});

/**
 * The same destinations as the request side reads them when it plans a request
 * (src/observability/capture/destination-targets.ts). Read again only when the file changed: this
 * is on every forwarded request's path (bench/observability.ts measures it), where the gateway's
 * own reader answers from its read cache.
 */
export function destinationTargets(config: Config): DestinationTargets {
  const file = join(config.dataDir, DESTINATIONS_FILE);
  let seen: { version: string; list: Destination[] } = { version: "", list: [] };
  return async (workspaceId) => {
    const stat = statSync(file, { throwIfNoEntry: false });
    const version = stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : "";
    if (version !== seen.version) seen = { version, list: destinations(file) };
    return seen.list.filter((d) => d.workspaceId === workspaceId && d.enabled);
  };
}

export function observabilityParts(deps: JobDeps): ObservabilityParts {
  const file = join(deps.config.dataDir, DESTINATIONS_FILE);
  return {
    destinations: {
      enabledForWorkspace: async (workspaceId) => destinations(file).filter((d) => d.workspaceId === workspaceId && d.enabled),
      byId: async (id) => destinations(file).find((d) => d.id === id) ?? null,
    },
    senders: loopbackSender,
  };
}
