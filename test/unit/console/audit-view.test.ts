// What the Audit page shows of an event beside the API's fields: where it came from, the names of
// who and what (a thing deleted since, by the name its events kept), and no secret even in an
// event whose writer forgot to redact one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { recordChange } from "../../../src/audit/record";
import { AUDIT_RESOURCES, consoleAuditEvents, originOf } from "../../../src/console/audit-view";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { AuditEventRecord, Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";

let dir: string;
let store: Store;
const NOW = Date.UTC(2030, 0, 1);
const asUser = { actor: { type: "user" as const, id: "gone", label: "gone@example.com" }, ip: null, userAgent: null };

beforeAll(() => {
  dir = tempDir();
  store = createSqliteStore(join(dir, "gateway.db"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("origin: sign-ins by their action, the rest by who made them", () => {
  const of = (action: string, actorType: AuditEventRecord["actorType"]) => originOf({ action, actorType });
  expect([
    of("session.sign_in", "user"),
    of("session.sign_in_failed", "user"),
    of("key.create", "user"),
    of("key.create", "key"),
    of("user.create", "scim"),
    of("key.create", "cli"),
    of("workspace.create", "system"),
  ]).toEqual(["sign-in", "sign-in", "console", "api", "scim", "cli", "system"]);
  expect(AUDIT_RESOURCES).toContain("scim_mapping");
});

test("a deleted thing is named as its events kept it; a removed person by the email the event kept; a secret field is masked whatever was written", async () => {
  const written = await store.transaction(async (tx) => [
    await recordChange(tx, NOW, asUser, {
      action: "guardrail.create",
      target: { type: "guardrail", id: "g1" },
      changes: { name: { from: null, to: "PII filter" } },
    }),
    await recordChange(tx, NOW + 1, asUser, {
      action: "guardrail.update",
      target: { type: "guardrail", id: "g1" },
      changes: { enabled: { from: true, to: false } },
    }),
    // a writer that forgot its redaction
    await recordChange(tx, NOW + 2, asUser, {
      action: "byok.update",
      target: { type: "byok", id: "b1" },
      changes: { key: { from: "sk-old-secret", to: "sk-new-secret" }, password: { from: null, to: "hunter2" }, name: { from: "a", to: "b" } },
    }),
  ]);
  const shown = await consoleAuditEvents(store, written);
  expect(shown.map((e) => [e.actor_name, e.origin, e.target_name])).toEqual([
    ["gone@example.com", "console", "PII filter"],
    ["gone@example.com", "console", "PII filter"],
    ["gone@example.com", "console", "b"],
  ]);
  expect(shown[2]!.changes).toEqual({
    key: { from: "[redacted]", to: "[redacted]" },
    password: { from: null, to: "[redacted]" },
    name: { from: "a", to: "b" },
  });
  expect(JSON.stringify(shown)).not.toContain("secret");
  expect(JSON.stringify(shown)).not.toContain("hunter2");
});
