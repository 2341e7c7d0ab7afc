import { batchRanges } from "../batch-ranges";
import type { Destination, DestinationSender, ObservedGeneration, ProbeResult, SenderDeps, SendOutcome } from "../contract";
import { sendSplitting } from "../halving-batches";
import { clickhouseCreateTable, clickhouseIdentifier, clickhouseJsonLine } from "./clickhouse-table";
import { baseUrlOf, configText } from "./destination-config";
import { generationRow } from "./generation-row";
import { classifyResponse, type HttpResult, isRetryableStatus } from "./post-json";
import { probeFromResponse } from "./probe-result";
import { destinationHeaders } from "./request-headers";

/**
 * ClickHouse over its HTTP interface (clickhouse.com/docs/interfaces/http): one JSONEachRow line per generation,
 * `POST {host}/?query=INSERT INTO db.table FORMAT JSONEachRow`, a drain's generations in one
 * insert. A single generation's insert carries its id as its deduplication token, so a retried
 * insert that had landed is not stored twice where the table deduplicates (replicated and Cloud
 * tables do by default).
 */
export const clickhouseSender: DestinationSender = {
  type: "clickhouse",
  configKeys: [
    { key: "host", required: true, url: true },
    { key: "database", required: true },
    { key: "username", required: true },
    { key: "password", required: true, secret: true },
    { key: "table", required: false, default: "OPENROUTER_TRACES" },
  ],
  // the credentials first (SELECT 1), then the table, so the message says which is wrong
  async probe(destination, deps) {
    const reached = probeFromResponse(await query(destination, deps, "SELECT 1"), "the server");
    if (!reached.ok) return reached;
    const database = configText(destination, "database");
    const table = configText(destination, "table");
    const exists = await query(destination, deps, `EXISTS TABLE ${qualifiedTable(destination)}`);
    return tableVerdict(exists, database, table);
  },
  sendMany: insertRows,
  send: async (generation, destination, deps) => (await insertRows([generation], destination, deps))[0]!,
};

/** Rows in one INSERT at most: ClickHouse wants few, large inserts (each makes a part; many small ones end in TOO_MANY_PARTS). */
const MAX_INSERT_ROWS = 1000;
const MAX_INSERT_CHARS = 16_000_000;

/**
 * The generations' rows in as few INSERTs as the caps allow. An INSERT of one block is atomic, so
 * each one's outcome is all of its rows'. Its deduplication token is the generation id for one
 * row, else a digest of the ids: an INSERT sent again whole (a drain run again) is stored once.
 */
function insertRows(generations: readonly ObservedGeneration[], destination: Destination, deps: SenderDeps): Promise<SendOutcome[]> {
  const sql = `INSERT INTO ${qualifiedTable(destination)} FORMAT JSONEachRow`;
  const lines = generations.map((g) => clickhouseJsonLine(generationRow(g, destination)));
  const token = (start: number, end: number) =>
    end - start === 1
      ? generations[start]!.id
      : new Bun.CryptoHasher("sha256")
          .update(
            generations
              .slice(start, end)
              .map((g) => g.id)
              .join("\n"),
          )
          .digest("hex");
  return sendSplitting(
    generations.map((_, i) => i),
    batchRanges(lines, MAX_INSERT_ROWS, MAX_INSERT_CHARS),
    (batch) => query(destination, deps, sql, `${batch.map((i) => lines[i]).join("\n")}\n`, { insert_deduplication_token: token(batch[0]!, batch.at(-1)! + 1) }),
    (result) => classifyClickhouse(result, deps.clock()),
    // the rows are made from a fixed schema: a refused INSERT is about the table or the server, not one row
    () => false,
  );
}

const qualifiedTable = (destination: Destination) =>
  `${clickhouseIdentifier(configText(destination, "database"))}.${clickhouseIdentifier(configText(destination, "table"))}`;

function query(destination: Destination, deps: SenderDeps, sql: string, body = "", settings: Record<string, string> = {}): Promise<HttpResult> {
  const params = new URLSearchParams({ query: sql, ...settings });
  const headers = destinationHeaders(
    destination,
    { "x-clickhouse-user": configText(destination, "username"), "x-clickhouse-key": configText(destination, "password") },
    "text/plain; charset=utf-8",
  );
  return deps.http({ url: `${baseUrlOf(destination, "host")}/?${params}`, method: "POST", headers, body });
}

function tableVerdict(result: HttpResult, database: string, table: string): ProbeResult {
  const reached = probeFromResponse(result, "the table");
  if (!reached.ok || result.kind !== "response") return reached;
  if (new TextDecoder().decode(result.body).trim() === "1") return { ok: true };
  return { ok: false, message: `table ${database}.${table} does not exist; create it with: ${clickhouseCreateTable(database, table)}` };
}

/**
 * ClickHouse error codes worth another try: the server was busy or short of something, not
 * the statement wrong (TIMEOUT_EXCEEDED, TOO_MANY_SIMULTANEOUS_QUERIES, NO_FREE_CONNECTION,
 * SOCKET_TIMEOUT, NETWORK_ERROR, MEMORY_LIMIT_EXCEEDED, TABLE_IS_READ_ONLY, TOO_MANY_PARTS,
 * TOO_FEW_LIVE_REPLICAS, UNKNOWN_STATUS_OF_INSERT, KEEPER_EXCEPTION).
 */
const RETRYABLE_EXCEPTION_CODES = new Set(["159", "202", "203", "209", "210", "241", "242", "252", "285", "319", "999"]);

/** A 5xx naming a SQL error (unknown table, syntax, bad row) is never retried; one naming a busy server, or none, is. */
export function classifyClickhouse(result: HttpResult, now: number): SendOutcome {
  const code = result.kind === "response" ? result.headers.get("x-clickhouse-exception-code") : null;
  return classifyResponse(result, now, {
    isRetryable: (status) => isRetryableStatus(status) && (code === null || RETRYABLE_EXCEPTION_CODES.has(code)),
  });
}
