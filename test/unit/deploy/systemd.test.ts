// deploy/model-gateway.service: its install steps leave gateway.yaml readable by the service's
// user, choose the management key instead of printing one into the journal, and the stop
// waits longer than the gateway's own grace.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../../src/config";

const unit = readFileSync(join(import.meta.dir, "../../../deploy/model-gateway.service"), "utf8");
const installSteps = unit
  .split("\n")
  .filter((line) => /^# {3}[^#\s]/.test(line))
  .map((line) => line.slice(4));
const setting = (name: string) => [...unit.matchAll(new RegExp(`^${name}=(.*)$`, "gm"))].map((m) => m[1]!);

test("install steps: /etc/model-gateway and gateway.yaml belong to the service's group, which may read them", () => {
  const user = setting("User")[0]!;
  expect(setting("Group")).toEqual([user]);
  const dir = installSteps.find((s) => s.startsWith("install -d") && s.endsWith("/etc/model-gateway"))!;
  expect(dir).toBe(`install -d -m 0750 -o root -g ${user} /etc/model-gateway`);
  const yaml = installSteps.find((s) => s.includes("gateway.yaml /etc/model-gateway/"))!;
  expect(yaml).toBe(`install -m 0640 -o root -g ${user} gateway.yaml /etc/model-gateway/`);
  expect(setting("Environment")).toContain("GATEWAY_CONFIG=/etc/model-gateway/gateway.yaml");
});

test("install steps: GATEWAY_ADMIN_KEY goes into the root-only environment file before the first start", () => {
  const envFile = setting("EnvironmentFile")[0]!.replace(/^-/, "");
  const written = installSteps.findIndex((s) => s.includes("GATEWAY_ADMIN_KEY=") && s.includes(`>${envFile}`) && s.includes("umask 077"));
  const started = installSteps.findIndex((s) => s.includes("systemctl daemon-reload && systemctl enable --now"));
  expect(written).toBeGreaterThanOrEqual(0);
  expect(written).toBeLessThan(started);
  // 32 random bytes in hex: a key GATEWAY_ADMIN_KEY accepts
  expect(loadConfig({ DATABASE_URL: ":memory:", GATEWAY_ADMIN_KEY: "ab".repeat(32) }).adminKey).toHaveLength(64);
  expect(unit).not.toContain("prints the management key once");
});

test("the stop: systemd waits longer than GATEWAY_SHUTDOWN_GRACE_SECONDS, and Bun's request limit is set", () => {
  const env = Object.fromEntries(setting("Environment").map((e) => e.split("=", 2) as [string, string]));
  // the unit's own settings, without the files it names (not on this machine)
  const { GATEWAY_CONFIG: _file, DATABASE_URL: _database, ...settings } = env;
  const grace = loadConfig({ ...settings, DATABASE_URL: ":memory:" }).shutdownGraceSeconds;
  expect(Number(setting("TimeoutStopSec")[0])).toBeGreaterThanOrEqual(grace + 10);
  expect(setting("KillSignal")).toEqual(["SIGINT"]);
  expect(env.BUN_CONFIG_MAX_HTTP_REQUESTS).toBe("65535");
});
