/**
 * The SQLite schema drizzle-kit reads (drizzle.config.ts): the tables both dialects describe once
 * (../tables/, one file per concern) built with sqlite-core, and the outbox, which has a shape of
 * its own here (./tables/). Times are integer milliseconds since the epoch; money is integer
 * nano-dollars (1e-9 USD).
 */

import * as accountTables from "../tables/accounts";
import * as analyticsTables from "../tables/analytics";
import * as auditTables from "../tables/audit";
import { sqliteTables } from "../tables/build";
import * as contentTables from "../tables/generation-contents";
import * as guardrailTables from "../tables/guardrails";
import * as identityTables from "../tables/identity";
import * as jobTables from "../tables/jobs";
import * as moneyTables from "../tables/money";
import * as observabilityTables from "../tables/observability";
import * as presetResponseTables from "../tables/presets-responses";
import * as responseCacheTables from "../tables/response-cache";
import * as signInTables from "../tables/sign-in";

export const { meta, users, workspaces, workspaceMembers, apiKeys, apiKeyPreviousHashes, workspaceWebhookSecrets, byokCredentials } =
  sqliteTables(accountTables);
export const { keyUsage, generations, reservations, workspaceUsage, workspaceBudgets, activityDaily, generationFeedback } = sqliteTables(moneyTables);
export const { presets, presetVersions, storedResponses, responseItems } = sqliteTables(presetResponseTables);
export const { jobs, jobOutcomes, videoJobs } = sqliteTables(jobTables);
export const { observabilityDestinations } = sqliteTables(observabilityTables);
export const { userPasswords, webSessions, userInvites, authCodes } = sqliteTables(signInTables);
export const { generationContents } = sqliteTables(contentTables);
export const { guardrails, guardrailKeyAssignments, guardrailMemberAssignments, memberUsage } = sqliteTables(guardrailTables);
export const { responseCache } = sqliteTables(responseCacheTables);
export const { auditEvents } = sqliteTables(auditTables);
export const { userIdentities, scimTokens, scimUsers, scimGroups, scimGroupMembers, scimGroupMappings, scimManagedMembers, scimSyncJobs } =
  sqliteTables(identityTables);
export const { analyticsHourly, refusedRequests, refusalsHourly, budgetAlerts } = sqliteTables(analyticsTables);
export * from "./tables/observation-outbox";
