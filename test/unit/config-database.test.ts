import { describe, expect, test } from "bun:test";
import { configCheckCommand } from "../../src/cli/commands";
import { configWarnings, loadConfig } from "../../src/config";
import { describeConfig } from "../../src/config-describe";
import { configError } from "../support/config-error";

const SECRET = "ab".repeat(32);

describe("database, Redis and instance settings", () => {
  test("SQLite by default, in memory for one instance", () => {
    const c = loadConfig({ DATABASE_URL: ":memory:" });
    expect(c.database).toEqual({ dialect: "sqlite", path: ":memory:" });
    expect(c.redis).toBeUndefined();
    expect(c.reservationLeaseMs).toBe(120_000);
    expect(configWarnings(c)).toEqual([]);
  });

  test("a postgres:// URL selects PostgreSQL with its pool size", () => {
    const c = loadConfig({ DATABASE_URL: "postgresql://gw:pw@db.internal:5432/gateway", DATABASE_POOL_SIZE: "25", GATEWAY_SECRET_KEY: SECRET });
    expect(c.database).toEqual({ dialect: "postgres", url: "postgresql://gw:pw@db.internal:5432/gateway", poolSize: 25 });
    expect(loadConfig({ DATABASE_URL: "postgres://db/g", GATEWAY_SECRET_KEY: SECRET }).database).toMatchObject({ poolSize: 10 });
  });

  test("PostgreSQL needs GATEWAY_SECRET_KEY: every instance must open the others' BYOK secrets", () => {
    expect(configError(() => loadConfig({ DATABASE_URL: "postgres://db/g" }))).toBe(
      "config error: GATEWAY_SECRET_KEY: expected to be set with a PostgreSQL DATABASE_URL (every instance must share one master key for BYOK secrets)",
    );
  });

  test("bad values name their variable, with credentials masked", () => {
    expect(configError(() => loadConfig({ DATABASE_URL: "postgres://db/g", GATEWAY_SECRET_KEY: SECRET, DATABASE_POOL_SIZE: "0" }))).toBe(
      'config error: DATABASE_POOL_SIZE: expected an integer from 1 to 1000 (got "0")',
    );
    expect(configError(() => loadConfig({ DATABASE_URL: ":memory:", REDIS_URL: "http://user:secret@cache:6379" }))).toBe(
      'config error: REDIS_URL: expected a URL such as redis://host:6379 (got "http://***@cache:6379")',
    );
    expect(configError(() => loadConfig({ DATABASE_URL: ":memory:", GATEWAY_RESERVATION_LEASE_MS: "10" }))).toBe(
      'config error: GATEWAY_RESERVATION_LEASE_MS: expected an integer from 1000 to 86400000 (got "10")',
    );
  });

  test("config check masks passwords and warns about PostgreSQL without Redis", () => {
    const c = loadConfig({ DATABASE_URL: "postgres://gw:hunter2@db/g", GATEWAY_SECRET_KEY: SECRET, GATEWAY_INSTANCE_ID: "vm-1" });
    const out: string[] = [];
    const warnings: string[] = [];
    configCheckCommand(
      c,
      (l) => out.push(l),
      (l) => warnings.push(l),
    );
    const printed = JSON.parse(out.join("\n"));
    expect(printed.database).toEqual({ dialect: "postgres", url: "postgres://gw:****@db/g", pool_size: 10 });
    expect(printed.instance_id).toBe("vm-1");
    expect(out.join("\n")).not.toContain("hunter2");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith("warning: PostgreSQL without REDIS_URL: run a single instance.");
    const withRedis = loadConfig({ DATABASE_URL: "postgres://db/g", GATEWAY_SECRET_KEY: SECRET, REDIS_URL: "redis://:tok@cache:6379", REDIS_PREFIX: "team:" });
    expect(configWarnings(withRedis)).toEqual([]);
    expect(describeConfig(withRedis).redis).toEqual({ url: "redis://:****@cache:6379", prefix: "team:" });
  });
});
