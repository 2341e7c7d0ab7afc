// Invites and passwords through the services, on a SQLite store with a clock the test moves.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { acceptInvite, createInvite, inviteeOf, setPassword } from "../../../src/auth-web/accounts";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";
import { TEST_ORIGIN } from "../../support/sign-in";

const dir = tempDir("gw-accounts-");
let store: Store;
let now = Date.parse("2030-01-01T00:00:00Z");
const ctx = () => ({ store, clock: () => now });

beforeAll(async () => {
  store = createSqliteStore(join(dir, "g.db"));
  await store.users.create({ id: "kim", email: "kim@example.com", name: null, role: "member", createdAt: now });
  await store.users.create({ id: "nomail", email: null, name: null, role: "member", createdAt: now });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;

test("an invite works until 24 hours after it was made, not at 24 hours", async () => {
  const { url, expiresAt } = await createInvite(ctx(), "kim", "https://gw.example");
  expect(url).toStartWith("https://gw.example/invite?token=");
  expect(expiresAt).toBe(now + 24 * 3_600_000);
  const start = now;
  now = start + 24 * 3_600_000 - 1;
  expect((await inviteeOf(ctx(), tokenOf(url)))?.id).toBe("kim");
  now = start + 24 * 3_600_000;
  expect(await inviteeOf(ctx(), tokenOf(url))).toBeUndefined();
  expect(await acceptInvite(ctx(), { ip: null, userAgent: null }, tokenOf(url), "a fine password")).toBeUndefined();
  expect(await store.passwords.get("kim")).toBeUndefined();
  now = start;
});

test("setting a password voids open invites; users without an email get neither", async () => {
  const { url } = await createInvite(ctx(), "kim", "https://gw.example");
  await setPassword(ctx(), TEST_ORIGIN, "kim", "kim's own password");
  expect(await inviteeOf(ctx(), tokenOf(url))).toBeUndefined();
  expect((await store.passwords.get("kim"))!).toStartWith("$argon2id$");
  await expect(createInvite(ctx(), "nomail", "https://gw.example")).rejects.toThrow("has no email");
  await expect(setPassword(ctx(), TEST_ORIGIN, "nomail", "whatever password")).rejects.toThrow("has no email");
  await expect(setPassword(ctx(), TEST_ORIGIN, "nobody", "whatever password")).rejects.toThrow("User not found: 'nobody'");
});
