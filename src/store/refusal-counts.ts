import { HOUR_MS } from "./analytics-row";
import type { RefusalCounter, RefusalRecord } from "./analytics-store";

/** A batch of refusals summed per counter row: hour, workspace, key ("" when unknown) and status. */
export function refusalCounters(batch: readonly RefusalRecord[]): RefusalCounter[] {
  const rows = new Map<string, RefusalCounter>();
  for (const r of batch) {
    const row = { hour: r.createdAt - (r.createdAt % HOUR_MS), workspaceId: r.workspaceId ?? "", keyHash: r.keyHash ?? "", status: r.status };
    const id = `${row.hour}|${row.workspaceId}|${row.keyHash}|${row.status}`;
    const seen = rows.get(id);
    if (seen) seen.requests++;
    else rows.set(id, { ...row, requests: 1 });
  }
  return [...rows.values()];
}
