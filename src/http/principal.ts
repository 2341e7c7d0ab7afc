import type { ApiKeyRecord, UserRecord, WorkspaceRecord } from "../store/store";

/** Who is calling: resolved from the bearer key by the auth plugin. */
export type Principal = {
  key: ApiKeyRecord;
  workspace: WorkspaceRecord;
  user: UserRecord | null;
  isManagement: boolean;
};
