import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createLogger } from "../../../src/logger";
import { createInferenceKey, startTestGateway, tempDir } from "../../support/gateway";
import type { MockUpstream } from "../../support/mock-upstream";
import { byokYaml, chat, createByok, keyCheckingUpstream } from "./helpers";

const SECRET_1 = "11".repeat(32);
const SECRET_2 = Buffer.alloc(32, 2).toString("base64");

let up: MockUpstream;
let keysSeen: (from?: number) => string[];
const dir = tempDir();

beforeAll(async () => {
  ({ up, keysSeen } = await keyCheckingUpstream());
});
afterAll(async () => {
  await up.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("GATEWAY_SECRET_KEY", () => {
  test("credentials survive a restart under the same master key and are skipped (and logged, without the key) under another", async () => {
    const first = await startTestGateway({ yaml: byokYaml(up.url), dir, env: { GATEWAY_SECRET_KEY: SECRET_1 } });
    const cred = await createByok(first, { key: "byok-sealed-under-one" });
    const { key } = await createInferenceKey(first);
    await first.close();
    expect(existsSync(join(dir, "master.key"))).toBe(false);

    const same = await startTestGateway({ yaml: byokYaml(up.url), dir, env: { GATEWAY_SECRET_KEY: SECRET_1 } });
    let before = up.requests.length;
    await (await chat(same, key)).text();
    expect(keysSeen(before)).toEqual(["byok-sealed-under-one"]);
    await same.close();

    const other = await startTestGateway({ yaml: byokYaml(up.url), dir, env: { GATEWAY_SECRET_KEY: SECRET_2 } });
    const lines: string[] = [];
    other.ctx.logger = createLogger("debug", (l) => lines.push(l));
    before = up.requests.length;
    const res = await chat(other, key);
    expect(res.status).toBe(200);
    expect(keysSeen(before)).toEqual(["gateway-own-key"]);
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: "error", msg: "BYOK credential cannot be decrypted with the current master key", byok_id: cred.id, provider: "mock" }),
    ]);
    expect(lines.join("\n").includes("byok-sealed-under-one")).toBe(false);
    await other.close();
  });
});
