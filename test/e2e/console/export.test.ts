// The generation log's CSV export: every generation the filters select, whatever their number
// (read a page of 1,000 at a time while the client reads), named keys and workspaces, RFC 4180
// quoting; a member exports one of their workspaces.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { csvField } from "../../../src/console/generations-csv";
import type { SettledGeneration } from "../../../src/store/store";
import { type ConsoleGateway, startConsoleGateway } from "./harness";

let cg: ConsoleGateway;
const COUNT = 2_500;
const NOW = Date.now();

const settled = (i: number, keyHash: string, workspaceId: string, model: string): SettledGeneration => ({
  record: {
    id: `gen-export-${String(i).padStart(5, "0")}`,
    keyHash,
    workspaceId,
    userId: null,
    apiType: "completions",
    requestedModel: model,
    model,
    providerName: "oc",
    endpointId: "oc/up",
    upstreamId: null,
    streamed: false,
    cancelled: false,
    finishReason: "stop",
    nativeFinishReason: null,
    tokensPrompt: 10,
    tokensCompletion: 5,
    tokensCached: null,
    tokensCacheWrite: null,
    tokensReasoning: null,
    usageEstimated: false,
    costNanos: 20_000,
    promptCostNanos: 10_000,
    completionCostNanos: 10_000,
    isByok: false,
    latencyMs: 120,
    generationTimeMs: 100,
    timeToFirstTokenMs: null,
    attempts: [],
    sessionId: null,
    externalUser: null,
    presetId: null,
    trace: null,
    httpReferer: null,
    userAgent: null,
    origin: null,
    errorMessage: null,
    createdAt: NOW - i * 1000,
  },
  day: new Date(NOW).toISOString().slice(0, 10),
  reservationId: null,
  spend: null,
});

beforeAll(async () => {
  cg = await startConsoleGateway();
  const key = (await (await cg.gw.api("/api/v1/keys", { method: "POST", json: { name: 'export, "quoted" key', workspace_id: cg.team } })).json()) as {
    data: { hash: string };
  };
  const batch: SettledGeneration[] = [];
  for (let i = 0; i < COUNT; i++) batch.push(settled(i, key.data.hash, cg.team, i % 5 === 0 ? "m/five" : "m/other"));
  for (let i = 0; i < batch.length; i += 500) await cg.gw.ctx.store.generations.commit(batch.slice(i, i + 500));
}, 60_000);
afterAll(() => cg.close());

test("every selected generation, newest first, quoted where needed, however many pages", async () => {
  const res = await cg.call("owner", "GET", "/console/api/generations.csv");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="generations-\d{4}-\d{2}-\d{2}\.csv"$/);
  const lines = (await res.text()).trimEnd().split("\r\n");
  expect(lines.length).toBe(COUNT + 1);
  expect(lines[1]!.split(",").slice(0, 5)).toEqual([new Date(NOW).toISOString(), "gen-export-00000", "m/five", "oc", "success"]);
  expect(lines[1]).toContain(',"export, ""quoted"" key",Team,10,5,0.00002,120,stop');
  expect(lines.at(-1)).toContain("gen-export-02499");
});

test("the log's filters select what is exported; a member exports their workspace", async () => {
  const filtered = await cg.call("member", "GET", `/console/api/generations.csv?workspace_id=${cg.team}&model=m%2Ffive`);
  const lines = (await filtered.text()).trimEnd().split("\r\n");
  expect(lines.length).toBe(COUNT / 5 + 1);
  expect(lines.slice(1).every((l) => l.includes(",m/five,"))).toBe(true);
});

test("CSV fields: commas, quotes and line breaks quoted, the rest as they are", () => {
  expect([csvField("plain"), csvField('a "b"'), csvField("x,y"), csvField("line\nbreak"), csvField(null), csvField(0.5)]).toEqual([
    "plain",
    '"a ""b"""',
    '"x,y"',
    '"line\nbreak"',
    "",
    "0.5",
  ]);
});
