import type { Destination, DestinationSender, SenderDeps, SendOutcome } from "../contract";
import { configText } from "./destination-config";
import { generationRow } from "./generation-row";
import { derivedUuidV4 } from "./ids";
import { classifyResponse, type HttpResult } from "./post-json";
import { probeFromResponse } from "./probe-result";
import { destinationHeaders } from "./request-headers";
import { SNOWFLAKE_IDENTIFIER, snowflakeCreateTable, snowflakeInsert } from "./snowflake-statement";

/** Snowflake's account identifier (the pattern OpenRouter's OpenAPI spec gives the destination's `account`), e.g. `eac52885.us-east-1` or `myorg-myaccount`. */
const ACCOUNT = /^[A-Za-z0-9_]+([.-][A-Za-z0-9_]+)*$/;

/** The account's SQL API host: fixed by Snowflake, so tests route it through their own `http`. */
export const snowflakeBaseUrl = (account: string) => `https://${account.toLowerCase()}.snowflakecomputing.com`;

/** Waits between status checks of a statement still running after the first answer (≈ 7.75 s in all). */
export const SNOWFLAKE_POLL_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000] as const;

/**
 * Snowflake through the SQL API v2 (docs.snowflake.com/en/developer-guide/sql-api): one `INSERT … SELECT` with bindings per
 * generation. The requestId is derived from the generation and the destination, and every
 * submission says `retry=true`: Snowflake then runs a statement it has not seen under that id
 * and returns the earlier execution of one it has, so a retried delivery never inserts twice
 * (a sender cannot tell its first attempt from a retry, so it always asks this way).
 */
export const snowflakeSender: DestinationSender = {
  type: "snowflake",
  configKeys: [
    { key: "account", required: true, pattern: ACCOUNT },
    { key: "token", required: true, secret: true },
    { key: "database", required: false, default: "SNOWFLAKE_LEARNING_DB", pattern: SNOWFLAKE_IDENTIFIER },
    { key: "schema", required: false, default: "PUBLIC", pattern: SNOWFLAKE_IDENTIFIER },
    { key: "table", required: false, default: "OPENROUTER_TRACES", pattern: SNOWFLAKE_IDENTIFIER },
    { key: "warehouse", required: false, default: "COMPUTE_WH", pattern: SNOWFLAKE_IDENTIFIER },
  ],
  // DESCRIBE TABLE checks the token, the warehouse and the table in one statement, writing nothing
  async probe(destination, deps) {
    const result = await submit(destination, deps, { statement: `DESCRIBE TABLE ${qualifiedTable(destination)}` }, crypto.randomUUID());
    if (result.kind === "response" && result.status === 422) {
      return {
        ok: false,
        message: `table ${qualifiedTable(destination)} cannot be read; create it with: ${snowflakeCreateTable(qualifiedTable(destination))}`,
      };
    }
    return probeFromResponse(result, "the account");
  },
  async send(generation, destination, deps) {
    const requestId = derivedUuidV4("snowflake", destination.id, generation.id);
    const result = await submit(destination, deps, snowflakeInsert(qualifiedTable(destination), generationRow(generation, destination)), requestId);
    if (result.kind === "response" && result.status === 202) return awaitStatement(destination, deps, result);
    return classifySnowflake(result, deps.clock());
  },
};

/** Unquoted identifiers are upper case to Snowflake; the request's context fields are matched exactly, so they are sent so. */
const identifier = (destination: Destination, key: string) => configText(destination, key).toUpperCase();

const qualifiedTable = (destination: Destination) =>
  `${identifier(destination, "database")}.${identifier(destination, "schema")}.${identifier(destination, "table")}`;

const snowflakeHeaders = (destination: Destination) =>
  destinationHeaders(destination, {
    authorization: `Bearer ${configText(destination, "token")}`,
    "x-snowflake-authorization-token-type": "PROGRAMMATIC_ACCESS_TOKEN",
    accept: "application/json",
  });

function submit(destination: Destination, deps: SenderDeps, statement: { statement: string; bindings?: unknown }, requestId: string): Promise<HttpResult> {
  const url = `${snowflakeBaseUrl(configText(destination, "account"))}/api/v2/statements?requestId=${requestId}&retry=true`;
  const body = {
    ...statement,
    timeout: 60,
    database: identifier(destination, "database"),
    schema: identifier(destination, "schema"),
    warehouse: identifier(destination, "warehouse"),
  };
  return deps.http({ url, method: "POST", headers: snowflakeHeaders(destination), body: JSON.stringify(body) });
}

/** 422 is a SQL error (never retried); 408 (statement timeout), 429 and 5xx are retried under the same requestId. */
function classifySnowflake(result: HttpResult, now: number): SendOutcome {
  return classifyResponse(result, now, { isSuccess: (status) => status === 200 });
}

/** A 202 names the statement still running: its status is asked for a bounded number of times. */
async function awaitStatement(destination: Destination, deps: SenderDeps, accepted: Extract<HttpResult, { kind: "response" }>): Promise<SendOutcome> {
  const handle = statementHandle(accepted.body);
  if (!handle) return { kind: "retry", reason: "Snowflake answered 202 without a statement handle" };
  const url = `${snowflakeBaseUrl(configText(destination, "account"))}/api/v2/statements/${encodeURIComponent(handle)}`;
  for (const delay of SNOWFLAKE_POLL_DELAYS_MS) {
    await Bun.sleep(delay);
    const status = await deps.http({ url, method: "GET", headers: snowflakeHeaders(destination) });
    if (status.kind === "response" && status.status === 202) continue;
    return classifySnowflake(status, deps.clock());
  }
  // still running: the retry resubmits the same requestId, which finds this execution instead of starting another
  return { kind: "retry", reason: `Snowflake statement ${handle} still running`, afterSeconds: 30 };
}

function statementHandle(body: Uint8Array): string | null {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(body)) as { statementHandle?: unknown };
    return typeof parsed.statementHandle === "string" && parsed.statementHandle !== "" ? parsed.statementHandle : null;
  } catch {
    return null;
  }
}
