// A preset write that keeps colliding answers 409 (the store gives up with its own error; the
// presets service says what the client sees). The collisions are made real: a trigger on the
// gateway's SQLite file makes every insert of a preset version violate a unique index.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
  const db = new Database(join(gw.dir, "gateway.db"));
  db.exec("CREATE TABLE collide (n INTEGER UNIQUE); INSERT INTO collide VALUES (1)");
  db.exec("CREATE TRIGGER preset_versions_collide BEFORE INSERT ON preset_versions BEGIN INSERT INTO collide VALUES (1); END");
  db.close();
});
afterAll(() => gw.close());

test("a version that cannot be written after three tries is 409 with the preset's slug", async () => {
  const res = await gw.api("/api/v1/presets/racy/chat/completions", {
    method: "POST",
    json: { model: "acme/alpha", messages: [{ role: "user", content: "hi" }] },
  });
  expect(res.status).toBe(409);
  expect(await res.json()).toEqual({ error: { code: 409, message: "Preset 'racy' is being changed concurrently; retry" } });
});
