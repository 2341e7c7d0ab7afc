/** Snowflake's SQL API v2 against a loopback fake routed from the account host: headers, bindings, requestId, 202 polling, 422. */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { GENERATION_COLUMNS } from "../../../src/observability/native/generation-row";
import { snowflakeSender } from "../../../src/observability/native/snowflake";
import { jsonAnswer, startNativeRecorder, statusAnswer } from "../../support/native-recorder";
import { loopbackDeps } from "../../support/native-sender-deps";
import { chatGeneration, destinationOf, embeddingGeneration, STARTED_AT, withoutContent } from "../../support/observed-generation";

const snowflake = startNativeRecorder();
afterAll(() => snowflake.stop());
beforeEach(() => {
  snowflake.reset();
  snowflake.setDefault(jsonAnswer(200, { code: "090001", message: "Statement executed successfully.", statementHandle: "h-1" }));
});

// the account's host is fixed by Snowflake: the test's http sends it to the fake
const deps = () => loopbackDeps({ "eac52885.us-east-1.snowflakecomputing.com": snowflake.url });
const destination = destinationOf("snowflake", {
  account: "eac52885.us-east-1",
  token: "pat-secret",
  database: "analytics",
  schema: "PUBLIC",
  table: "OPENROUTER_TRACES",
  warehouse: "COMPUTE_WH",
});
type Statement = {
  statement: string;
  timeout: number;
  database: string;
  schema: string;
  warehouse: string;
  bindings: Record<string, { type: string; value: string | null }>;
};
const statement = (i = 0) => snowflake.requests[i]!.json as Statement;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("the INSERT goes to the account's /api/v2/statements with the PAT headers and a derived requestId", async () => {
  const d = deps();
  expect(await snowflakeSender.send(chatGeneration(), destination, d)).toEqual({ kind: "delivered" });
  expect(d.http.urls[0]).toStartWith("https://eac52885.us-east-1.snowflakecomputing.com/api/v2/statements?requestId=");
  const request = snowflake.requests[0]!;
  expect(request.method).toBe("POST");
  expect(request.path).toBe("/api/v2/statements");
  expect(request.headers.authorization).toBe("Bearer pat-secret");
  expect(request.headers["x-snowflake-authorization-token-type"]).toBe("PROGRAMMATIC_ACCESS_TOKEN");
  expect(request.headers.accept).toBe("application/json");
  expect(request.query.get("requestId")).toMatch(UUID);
  expect(request.query.get("retry")).toBe("true");
  expect(statement()).toMatchObject({ timeout: 60, database: "ANALYTICS", schema: "PUBLIC", warehouse: "COMPUTE_WH" });
});

test("the statement is INSERT … SELECT with one binding per column, PARSE_JSON for the VARIANT columns", async () => {
  await snowflakeSender.send(chatGeneration(), destination, deps());
  const { statement: sql, bindings } = statement();
  expect(sql).toStartWith(`INSERT INTO ANALYTICS.PUBLIC.OPENROUTER_TRACES (${GENERATION_COLUMNS.map((c) => c.name).join(", ")}) SELECT `);
  expect(sql).toContain("PARSE_JSON(?)");
  expect(sql).toContain("TO_TIMESTAMP_TZ(?)");
  expect(sql.match(/\?/g)).toHaveLength(GENERATION_COLUMNS.length);
  expect(Object.keys(bindings)).toEqual(GENERATION_COLUMNS.map((_, i) => String(i + 1)));
  const byColumn = Object.fromEntries(GENERATION_COLUMNS.map((c, i) => [c.name, bindings[String(i + 1)]!]));
  expect(byColumn.model).toEqual({ type: "TEXT", value: "acme/alpha" });
  expect(byColumn.prompt_tokens).toEqual({ type: "FIXED", value: "120" });
  expect(byColumn.cache_write_tokens).toEqual({ type: "FIXED", value: null });
  expect(byColumn.total_cost).toEqual({ type: "REAL", value: "0.00042" });
  expect(byColumn.streamed).toEqual({ type: "BOOLEAN", value: "true" });
  expect(byColumn.start_time).toEqual({ type: "TEXT", value: new Date(STARTED_AT).toISOString() });
  expect(JSON.parse(byColumn.metadata!.value!)).toMatchObject({ customer_tier: "gold" });
  for (const binding of Object.values(bindings)) expect(binding.value === null || typeof binding.value === "string").toBe(true);
});

test("a retry resubmits the same requestId; another generation gets another", async () => {
  snowflake.enqueue(statusAnswer(429, { "retry-after": "4" }), statusAnswer(503));
  expect(await snowflakeSender.send(chatGeneration(), destination, deps())).toMatchObject({ kind: "retry", afterSeconds: 4 });
  expect((await snowflakeSender.send(chatGeneration(), destination, deps())).kind).toBe("retry");
  expect(await snowflakeSender.send(chatGeneration(), destination, deps())).toEqual({ kind: "delivered" });
  await snowflakeSender.send(embeddingGeneration(), destination, deps());
  const ids = snowflake.requests.map((r) => r.query.get("requestId"));
  expect(new Set(ids.slice(0, 3)).size).toBe(1);
  expect(ids[3]).not.toBe(ids[0]);
});

test("202 is followed by status checks of the statement handle until it completes", async () => {
  snowflake.enqueue(
    jsonAnswer(202, { code: "333334", statementHandle: "01b2-handle", statementStatusUrl: "/api/v2/statements/01b2-handle" }),
    jsonAnswer(202, { code: "333334" }),
    jsonAnswer(200, { code: "090001" }),
  );
  expect(await snowflakeSender.send(chatGeneration(), destination, deps())).toEqual({ kind: "delivered" });
  expect(snowflake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
    "POST /api/v2/statements",
    "GET /api/v2/statements/01b2-handle",
    "GET /api/v2/statements/01b2-handle",
  ]);
  expect(snowflake.requests[1]!.headers.authorization).toBe("Bearer pat-secret");
});

test("422 (a SQL error) fails, also when the status check reports it; 401 fails", async () => {
  snowflake.enqueue(jsonAnswer(422, { code: "002003", message: "Table 'OPENROUTER_TRACES' does not exist" }));
  expect(await snowflakeSender.send(chatGeneration(), destination, deps())).toMatchObject({
    kind: "failed",
    reason: expect.stringContaining("does not exist"),
  });
  snowflake.enqueue(jsonAnswer(202, { statementHandle: "h-2" }), jsonAnswer(422, { message: "Numeric value 'x' is not recognized" }));
  expect(await snowflakeSender.send(chatGeneration(), destination, deps())).toMatchObject({
    kind: "failed",
    reason: expect.stringContaining("not recognized"),
  });
  snowflake.enqueue(jsonAnswer(401, { message: "Invalid token" }));
  expect((await snowflakeSender.send(chatGeneration(), destination, deps())).kind).toBe("failed");
});

test("privacy mode binds null input and output", async () => {
  await snowflakeSender.send(withoutContent(chatGeneration()), destination, deps());
  const byColumn = Object.fromEntries(GENERATION_COLUMNS.map((c, i) => [c.name, statement().bindings[String(i + 1)]!]));
  expect(byColumn.input).toEqual({ type: "TEXT", value: null });
  expect(byColumn.output).toEqual({ type: "TEXT", value: null });
});

test("the probe describes the table; a missing table names the CREATE TABLE", async () => {
  snowflake.enqueue(jsonAnswer(200, { data: [] }), jsonAnswer(422, { message: "does not exist or not authorized" }), jsonAnswer(401, { message: "bad token" }));
  expect(await snowflakeSender.probe(destination, deps())).toEqual({ ok: true });
  expect(statement().statement).toBe("DESCRIBE TABLE ANALYTICS.PUBLIC.OPENROUTER_TRACES");
  expect(await snowflakeSender.probe(destination, deps())).toMatchObject({
    ok: false,
    message: expect.stringContaining("CREATE TABLE IF NOT EXISTS ANALYTICS.PUBLIC.OPENROUTER_TRACES"),
  });
  expect(await snowflakeSender.probe(destination, deps())).toMatchObject({ ok: false, message: expect.stringContaining("credentials") });
});

test("config keys: the account pattern and OpenRouter's defaults", () => {
  const keys = Object.fromEntries(snowflakeSender.configKeys.map((k) => [k.key, k]));
  expect(keys.token).toMatchObject({ required: true, secret: true });
  expect([keys.database!.default, keys.schema!.default, keys.table!.default, keys.warehouse!.default]).toEqual([
    "SNOWFLAKE_LEARNING_DB",
    "PUBLIC",
    "OPENROUTER_TRACES",
    "COMPUTE_WH",
  ]);
  for (const good of ["eac52885.us-east-1", "myorg-myaccount", "xy12345"]) expect(keys.account!.pattern!.test(good)).toBe(true);
  for (const bad of ["evil.com/x", "a..b", "host:443", ""]) expect(keys.account!.pattern!.test(bad)).toBe(false);
  expect(keys.table!.pattern!.test("T; DROP TABLE X")).toBe(false);
});
