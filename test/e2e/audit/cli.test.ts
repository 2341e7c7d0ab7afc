// gateway audit verify and gateway audit list against the database a running gateway uses: OK and
// exit 0 for an untouched log, the first broken event and exit 1 once a row is edited behind the
// gateway's back; the CLI's own changes are events whose actor is the command line.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
let env: Record<string, string>;

function run(args: string[]) {
  const proc = Bun.spawnSync(["bun", "src/main.ts", ...args], { env: { ...process.env, LOG_LEVEL: "error", GATEWAY_CONFIG: "", ...env } });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

beforeAll(async () => {
  gw = await startTestGateway();
  env = { DATABASE_URL: `file:${join(gw.dir, "gateway.db")}`, GATEWAY_ADMIN_KEY: gw.adminKey };
  for (const name of ["a", "b", "c"]) expect((await gw.api("/api/v1/keys", { method: "POST", json: { name } })).status).toBe(201);
});
afterAll(async () => {
  await gw?.close();
});

test("the CLI's own changes are events of the command line; list filters and pages", () => {
  const created = run(["users", "add", "--id", "carol", "--email", "carol@example.com"]);
  expect(created.code).toBe(0);
  const listed = run(["audit", "list", "--action", "user.create", "--limit", "1"]);
  expect(listed.code).toBe(0);
  const [event] = listed.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect([event.action, event.actor.type, event.actor.label, event.target]).toEqual(["user.create", "cli", "gateway users add", { type: "user", id: "carol" }]);
  expect(listed.stderr.trim()).toBe("more: --cursor 7");
  const next = run(["audit", "list", "--action", "user.create", "--cursor", "7"]);
  expect(
    next.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).target.id),
  ).toEqual(["owner"]);
  const bad = run(["audit", "list", "--action", "key.explode"]);
  expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining("--action: expected one of key.create")]);
  const since = run(["audit", "list", "--since", "today"]);
  expect([since.code, since.stderr.trim()]).toEqual([2, "Invalid option 'since': expected a UTC ISO 8601 date-time with seconds, e.g. 2030-01-01T00:00:00Z"]);
});

test("verify: OK and exit 0; an edited event is named and exit 1; put back, OK again", async () => {
  const ok = run(["audit", "verify"]);
  expect([ok.code, ok.stdout.trim()]).toEqual([0, "OK: 7 event(s) verified (1 to 7)"]);
  const db = new Database(join(gw.dir, "gateway.db"));
  const original = db.query<{ changes: string }, []>("select changes from audit_events where seq = 5").get()!.changes;
  db.run("update audit_events set changes = ? where seq = 5", [original.replace('"b"', '"x"')]);
  const broken = run(["audit", "verify"]);
  expect([broken.code, broken.stdout.trim()]).toEqual([
    1,
    "BROKEN: event 5: its hash does not match its content: the event was edited (4 event(s) before it verified)",
  ]);
  db.run("update audit_events set changes = ? where seq = 5", [original]);
  expect(run(["audit", "verify"]).code).toBe(0);
  db.run("delete from audit_events where seq = 7");
  const truncated = run(["audit", "verify"]);
  expect([truncated.code, truncated.stdout.trim()]).toEqual([
    1,
    "BROKEN: event 7: the log ends at event 6 but its head is event 7: newer events were removed or changed (6 event(s) before it verified)",
  ]);
  db.close();
});
