/** ClickHouse over HTTP against a loopback server: the INSERT query parameter, NDJSON rows, probes, SQL errors. */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { clickhouseSender } from "../../../src/observability/native/clickhouse";
import { clickhouseCreateTable } from "../../../src/observability/native/clickhouse-table";
import { GENERATION_COLUMNS } from "../../../src/observability/native/generation-row";
import { startNativeRecorder, statusAnswer } from "../../support/native-recorder";
import { loopbackDeps } from "../../support/native-sender-deps";
import { chatGeneration, destinationOf, embeddingGeneration, videoGeneration } from "../../support/observed-generation";

const server = startNativeRecorder();
afterAll(() => server.stop());
beforeEach(() => {
  server.reset();
  server.setDefault(new Response("", { status: 200 }));
});

const destination = destinationOf("clickhouse", {
  host: `${server.url}/`,
  database: "analytics",
  username: "writer",
  password: "pw-1",
  table: "OPENROUTER_TRACES",
});
const rows = (i = 0) =>
  server.requests[i]!.body.split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const clickhouseError = (code: string, text: string) => new Response(text, { status: 500, headers: { "x-clickhouse-exception-code": code } });

test("one NDJSON row is POSTed with INSERT INTO db.table FORMAT JSONEachRow and header credentials", async () => {
  expect(await clickhouseSender.send(chatGeneration(), destination, loopbackDeps())).toEqual({ kind: "delivered" });
  const request = server.requests[0]!;
  expect(request.method).toBe("POST");
  expect(request.path).toBe("/");
  expect(request.query.get("query")).toBe("INSERT INTO `analytics`.`OPENROUTER_TRACES` FORMAT JSONEachRow");
  expect(request.query.get("insert_deduplication_token")).toBe("gen-01JD3F5Q7ZK8");
  expect(request.headers["x-clickhouse-user"]).toBe("writer");
  expect(request.headers["x-clickhouse-key"]).toBe("pw-1");
  expect(request.body.endsWith("\n")).toBe(true);
  expect(rows()).toHaveLength(1);
});

test("the row has every column of the documented schema, with ClickHouse-readable values", async () => {
  await clickhouseSender.send(chatGeneration(), destination, loopbackDeps());
  const [row] = rows();
  expect(Object.keys(row!)).toEqual(GENERATION_COLUMNS.map((c) => c.name));
  expect(row).toMatchObject({
    trace_name: "Support bot",
    generation_name: "answer",
    start_time: "2026-11-22 12:00:00.000",
    end_time: "2026-11-22 12:00:01.500",
    duration_ms: 1500,
    ttft_ms: 320,
    model: "acme/alpha",
    provider: "acme-cloud",
    api_key_name: "Production key",
    user_id: "end-user-7",
    session_id: "session-42",
    status: "success",
    streamed: true,
    prompt_tokens: 120,
    completion_tokens: 45,
    total_tokens: 165,
    cache_write_tokens: null,
    total_cost: 0.00042,
  });
  expect(row!.trace_id).toMatch(/^[0-9a-f]{32}$/);
  expect(JSON.parse(row!.attempts as string)).toHaveLength(2);
  expect(JSON.parse(row!.metadata as string)).toMatchObject({ customer_tier: "gold", trace_id: "caller-trace-1" });
  expect(JSON.parse(row!.input as string).messages).toHaveLength(2);
  expect(JSON.parse(row!.output as string).role).toBe("assistant");
});

test("embeddings and video rows have a null output and null unknown counts", async () => {
  await clickhouseSender.send(embeddingGeneration(), destination, loopbackDeps());
  await clickhouseSender.send(videoGeneration(), destination, loopbackDeps());
  expect(rows(0)[0]).toMatchObject({ operation: "embeddings", output: null, completion_tokens: null, total_tokens: 8 });
  expect(rows(1)[0]).toMatchObject({ operation: "video", span_name: "clip pipeline", output: null, prompt_tokens: null, total_tokens: null, total_cost: 1.2 });
});

test("a SQL error is not retried; a busy server (TOO_MANY_PARTS), an uncoded 503 and a dropped socket are", async () => {
  server.enqueue(
    clickhouseError("60", "Code: 60. DB::Exception: Table analytics.OPENROUTER_TRACES does not exist"),
    clickhouseError("252", "Too many parts"),
    statusAnswer(503),
    "drop",
  );
  const send = () => clickhouseSender.send(chatGeneration(), destination, loopbackDeps());
  expect(await send()).toMatchObject({ kind: "failed", reason: expect.stringContaining("does not exist") });
  expect((await send()).kind).toBe("retry");
  expect((await send()).kind).toBe("retry");
  expect((await send()).kind).toBe("retry");
});

test("a drain's generations go in one INSERT, rows in order, deduplicated by a digest of their ids; its answer is every row's", async () => {
  const generations = ["gen-a", "gen-b", "gen-c"].map((id) => chatGeneration({ id }));
  expect(await clickhouseSender.sendMany!(generations, destination, loopbackDeps())).toEqual(Array(3).fill({ kind: "delivered" }));
  expect(server.requests).toHaveLength(1);
  expect(rows().map((row) => row.generation_id)).toEqual(["gen-a", "gen-b", "gen-c"]);
  expect(server.requests[0]!.query.get("insert_deduplication_token")).toBe(new Bun.CryptoHasher("sha256").update("gen-a\ngen-b\ngen-c").digest("hex"));
  server.reset();
  server.enqueue(clickhouseError("60", "Code: 60. DB::Exception: Table analytics.OPENROUTER_TRACES does not exist"), clickhouseError("252", "Too many parts"));
  expect((await clickhouseSender.sendMany!(generations, destination, loopbackDeps())).map((o) => o.kind)).toEqual(["failed", "failed", "failed"]);
  expect((await clickhouseSender.sendMany!(generations, destination, loopbackDeps())).map((o) => o.kind)).toEqual(["retry", "retry", "retry"]);
  expect(server.requests).toHaveLength(2);
});

test("identifiers are quoted: a table name cannot inject SQL", async () => {
  await clickhouseSender.send(chatGeneration(), { ...destination, config: { ...destination.config, table: "t` FORMAT CSV --" } }, loopbackDeps());
  expect(server.requests[0]!.query.get("query")).toBe("INSERT INTO `analytics`.`t\\` FORMAT CSV --` FORMAT JSONEachRow");
});

test("the probe runs SELECT 1, then EXISTS TABLE, and offers the CREATE TABLE when the table is missing", async () => {
  server.enqueue(new Response("1\n"), new Response("1\n"));
  expect(await clickhouseSender.probe(destination, loopbackDeps())).toEqual({ ok: true });
  expect(server.requests.map((r) => r.query.get("query"))).toEqual(["SELECT 1", "EXISTS TABLE `analytics`.`OPENROUTER_TRACES`"]);
  server.reset();
  server.enqueue(new Response("1\n"), new Response("0\n"));
  const missing = await clickhouseSender.probe(destination, loopbackDeps());
  expect(missing).toMatchObject({ ok: false, message: expect.stringContaining("CREATE TABLE IF NOT EXISTS `analytics`.`OPENROUTER_TRACES`") });
  server.reset();
  server.enqueue(new Response("Code: 516. DB::Exception: writer: Authentication failed", { status: 403, headers: { "x-clickhouse-exception-code": "516" } }));
  expect(await clickhouseSender.probe(destination, loopbackDeps())).toMatchObject({ ok: false, message: expect.stringContaining("credentials") });
  expect(server.requests).toHaveLength(1);
});

test("the documented table has one typed column per row field", () => {
  const ddl = clickhouseCreateTable("db", "t");
  expect(ddl).toContain("start_time DateTime64(3, 'UTC')");
  expect(ddl).toContain("input Nullable(String)");
  expect(ddl).toContain("total_cost Float64");
  expect(ddl).toContain("ENGINE = MergeTree ORDER BY (start_time, trace_id)");
  expect(ddl.split("\n").filter((line) => line.startsWith("  "))).toHaveLength(GENERATION_COLUMNS.length);
});
