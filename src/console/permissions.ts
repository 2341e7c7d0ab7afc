import { GatewayError } from "../errors";
import type { Viewer } from "../http/viewer";
import type { ApiKeyRecord, GenerationRecord } from "../store/store";

/**
 * What a console viewer may see and change of a resource, checked by the console's routes on the
 * server (which routes a viewer may call at all is the auth plugin's `authorize`). What is hidden
 * is 404 (a generation, a key of someone else), what is seen but not allowed is 403.
 */

/** the workspaces whose figures the viewer sees; undefined: all of them */
export function visibleWorkspaces(viewer: Viewer): readonly string[] | undefined {
  return viewer.manages ? undefined : viewer.memberOf;
}

export function canSeeWorkspace(viewer: Viewer, workspaceId: string): boolean {
  return viewer.manages || viewer.memberOf.includes(workspaceId);
}

/** a generation's record and the content I/O logging kept of it: managers, and the members of its workspace */
export function canSeeGeneration(viewer: Viewer, g: Pick<GenerationRecord, "workspaceId">): boolean {
  return canSeeWorkspace(viewer, g.workspaceId);
}

/** 403 naming the field when a member names a workspace they do not belong to */
export function requireWorkspace(viewer: Viewer, workspaceId: string, field = "workspace_id"): void {
  if (!canSeeWorkspace(viewer, workspaceId))
    throw new GatewayError(403, `Invalid field '${field}': you are not a member of workspace '${workspaceId}'`, { field });
}

/** a member's own keys only; a manager's every key */
export function canManageKey(viewer: Viewer, key: Pick<ApiKeyRecord, "creatorUserId" | "workspaceId" | "isManagement">): boolean {
  if (viewer.manages) return true;
  return !key.isManagement && key.creatorUserId === viewer.userId && viewer.memberOf.includes(key.workspaceId);
}
