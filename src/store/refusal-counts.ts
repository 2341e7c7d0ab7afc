import { HOUR_MS } from "./analytics-row";
import type { RefusalRecord } from "./analytics-store";

/** A batch of refusals summed per counter row: hour, workspace, key ("" when unknown) and status. */
export function refusalCounterRows(
  batch: readonly RefusalRecord[],
): Array<{ hour: number; workspaceId: string; keyHash: string; status: number; requests: number }> {
  const rows = new Map<string, { hour: number; workspaceId: string; keyHash: string; status: number; requests: number }>();
  for (const r of batch) {
    const row = { hour: r.createdAt - (r.createdAt % HOUR_MS), workspaceId: r.workspaceId ?? "", keyHash: r.keyHash ?? "", status: r.status };
    const id = `${row.hour}|${row.workspaceId}|${row.keyHash}|${row.status}`;
    const seen = rows.get(id);
    if (seen) seen.requests++;
    else rows.set(id, { ...row, requests: 1 });
  }
  return [...rows.values()];
}
