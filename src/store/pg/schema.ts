/**
 * The PostgreSQL schema drizzle-kit reads (drizzle.pg.config.ts): the tables both dialects
 * describe once (../tables/, one file per concern) built with pg-core, and the outbox, which has a
 * shape of its own here (./tables/). Times are milliseconds since the epoch and money
 * nano-dollars, both `bigint` (int8) read back as JS numbers; JSON-bearing columns stay `text` so
 * values round-trip byte-exactly, as on SQLite.
 *
 * One difference: SQLite orders some lists by `rowid` (insertion order); PostgreSQL has no such
 * column, so the tables that need it carry an explicit identity column `seq`
 * (`workspace_members`, `preset_versions`; `insertionOrder` in ../tables/kit.ts).
 */

import * as accountTables from "../tables/accounts";
import * as analyticsTables from "../tables/analytics";
import * as auditTables from "../tables/audit";
import { pgTables } from "../tables/build";
import * as contentTables from "../tables/generation-contents";
import * as guardrailTables from "../tables/guardrails";
import * as identityTables from "../tables/identity";
import * as jobTables from "../tables/jobs";
import * as moneyTables from "../tables/money";
import * as observabilityTables from "../tables/observability";
import * as presetResponseTables from "../tables/presets-responses";
import * as responseCacheTables from "../tables/response-cache";
import * as signInTables from "../tables/sign-in";

export const { meta, users, workspaces, workspaceMembers, apiKeys, apiKeyPreviousHashes, workspaceWebhookSecrets, byokCredentials } = pgTables(accountTables);
export const { keyUsage, generations, reservations, workspaceUsage, workspaceBudgets, activityDaily, generationFeedback } = pgTables(moneyTables);
export const { presets, presetVersions, storedResponses, responseItems } = pgTables(presetResponseTables);
export const { jobs, jobOutcomes, videoJobs } = pgTables(jobTables);
export const { observabilityDestinations } = pgTables(observabilityTables);
export const { userPasswords, webSessions, userInvites, authCodes } = pgTables(signInTables);
export const { generationContents } = pgTables(contentTables);
export const { guardrails, guardrailKeyAssignments, guardrailMemberAssignments, memberUsage } = pgTables(guardrailTables);
export const { responseCache } = pgTables(responseCacheTables);
export const { auditEvents } = pgTables(auditTables);
export const { userIdentities, scimTokens, scimUsers, scimGroups, scimGroupMembers, scimGroupMappings, scimManagedMembers, scimSyncJobs } =
  pgTables(identityTables);
export const { analyticsHourly, refusedRequests, refusalsHourly, budgetAlerts } = pgTables(analyticsTables);
export * from "./tables/observation-outbox";
