// deploy/compose.yaml: the gateway built from the Dockerfile beside PostgreSQL 16+ and Redis 7+,
// each with a health check, the gateway started once both are healthy, with an environment the
// gateway's own config loader accepts.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { loadConfig, parseGatewayFile } from "../../../src/config";

const deploy = join(import.meta.dir, "../../../deploy");
const compose = Bun.YAML.parse(readFileSync(join(deploy, "compose.yaml"), "utf8")) as Record<string, any>;
const services = compose.services as Record<string, any>;

/** Compose's interpolation (compose-spec, "Interpolation"): ${NAME}, ${NAME:-default}, ${NAME:?error}. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?:(:-|:\?)([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string | undefined) => {
    if (env[name]) return env[name]!;
    if (op === ":?") throw new Error(`${name}: ${arg}`);
    return op === ":-" ? arg! : "";
  });
}

const imageMajor = (image: string) => Number(/:(\d+)/.exec(image)?.[1]);

test("three services: the gateway built from the repository's Dockerfile, PostgreSQL 16+ and Redis 7+", () => {
  expect(Object.keys(services).sort()).toEqual(["gateway", "postgres", "redis"]);
  const build = services.gateway.build;
  expect(existsSync(join(resolve(deploy, build.context), build.dockerfile))).toBe(true);
  expect(resolve(deploy, build.context)).toBe(resolve(deploy, ".."));
  expect(imageMajor(services.postgres.image)).toBeGreaterThanOrEqual(16);
  expect(imageMajor(services.redis.image)).toBeGreaterThanOrEqual(7);
});

test("each service has a health check, and the gateway waits until PostgreSQL and Redis pass theirs", () => {
  expect(services.gateway.healthcheck.test).toEqual(["CMD", "/gateway", "healthcheck"]);
  expect(services.postgres.healthcheck.test).toEqual(["CMD", "pg_isready", "-U", "gateway", "-d", "gateway"]);
  expect(services.redis.healthcheck.test).toEqual(["CMD", "redis-cli", "ping"]);
  expect(services.gateway.depends_on).toEqual({ postgres: { condition: "service_healthy" }, redis: { condition: "service_healthy" } });
});

test("the gateway's environment names the other services, needs the two secrets, and the config loader accepts it", () => {
  const raw = services.gateway.environment as Record<string, string>;
  expect(Object.keys(raw)).toEqual(expect.arrayContaining(["DATABASE_URL", "REDIS_URL", "GATEWAY_SECRET_KEY", "GATEWAY_ADMIN_KEY", "GATEWAY_CONFIG"]));
  const secrets = { GATEWAY_SECRET_KEY: "ab".repeat(32), GATEWAY_ADMIN_KEY: "compose-admin-key-0123456789abcdef0123" };
  // compose refuses to start without either (the :? form)
  expect(() => interpolate(raw.GATEWAY_SECRET_KEY!, {})).toThrow("GATEWAY_SECRET_KEY");
  expect(() => interpolate(raw.GATEWAY_ADMIN_KEY!, {})).toThrow("GATEWAY_ADMIN_KEY");
  const env = Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, interpolate(String(value), secrets)]));
  expect(env.DATABASE_URL).toBe("postgres://gateway:gateway@postgres:5432/gateway");
  expect(env.REDIS_URL).toBe("redis://redis:6379");
  expect(env.BUN_CONFIG_MAX_HTTP_REQUESTS).toBe("65535");
  // the password the database is created with is the one in the URL
  expect(interpolate(services.postgres.environment.POSTGRES_PASSWORD, {})).toBe("gateway");
  expect(interpolate(services.postgres.environment.POSTGRES_PASSWORD, { POSTGRES_PASSWORD: "s3cret" })).toBe("s3cret");
  expect(interpolate(raw.DATABASE_URL!, { POSTGRES_PASSWORD: "s3cret" })).toBe("postgres://gateway:s3cret@postgres:5432/gateway");

  // gateway.yaml mounted read-only where GATEWAY_CONFIG points, from a file beside compose.yaml that parses
  const mount = (services.gateway.volumes as string[]).find((v) => v.split(":")[1] === env.GATEWAY_CONFIG)!;
  const [source, , mode] = mount.split(":");
  expect(mode).toBe("ro");
  const yaml = readFileSync(resolve(deploy, source!), "utf8");
  expect(() => parseGatewayFile(yaml, {})).not.toThrow();
  const config = loadConfig({ ...env, GATEWAY_CONFIG: resolve(deploy, source!) });
  expect(config.database).toEqual({ dialect: "postgres", url: env.DATABASE_URL!, poolSize: 10 });
  expect(config.redis).toEqual({ url: "redis://redis:6379", prefix: "gateway:" });
  expect(config.adminKey).toBe(secrets.GATEWAY_ADMIN_KEY);
  expect(config.shutdownGraceSeconds).toBe(30);
  // one instance, no balancer: stop accepting at once (SIGINT); docker kills it after stop_grace_period, later than the grace
  expect(services.gateway.stop_signal).toBe("SIGINT");
  expect(Number(/^(\d+)s$/.exec(services.gateway.stop_grace_period)![1])).toBeGreaterThanOrEqual(config.shutdownGraceSeconds + 10);
});

test("named volumes for the data of each service, the gateway's root read-only with a tmpfs /tmp", () => {
  const named = Object.keys(compose.volumes).sort();
  expect(named).toEqual(["gateway-data", "postgres-data", "redis-data"]);
  const mounts = (service: string) => (services[service].volumes as string[]).map((v) => v.split(":").slice(0, 2).join(":"));
  expect(mounts("gateway")).toContain("gateway-data:/data");
  expect(mounts("postgres")).toContain("postgres-data:/var/lib/postgresql/data");
  expect(mounts("redis")).toContain("redis-data:/data");
  expect(services.gateway).toMatchObject({ read_only: true, tmpfs: ["/tmp"], cap_drop: ["ALL"], security_opt: ["no-new-privileges:true"] });
  expect(dirname(services.gateway.environment.GATEWAY_CONFIG)).toBe("/etc/gateway");
});
