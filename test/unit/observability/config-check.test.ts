import { expect, test } from "bun:test";
import fc from "fast-check";
import { GatewayError } from "../../../src/errors";
import { checkConfig, mergeConfig } from "../../../src/observability/config-check";
import type { ConfigKeySpec } from "../../../src/observability/contract";
import { isMasked, maskSecret } from "../../../src/observability/secret-mask";
import { senderFor } from "../../../src/observability/senders";
import type { UrlPolicy } from "../../../src/outbound/check-url";

const strict: UrlPolicy = { allowPrivate: false, lookup: async () => [{ address: "93.184.216.34", family: 4 }], lookupTimeoutMs: 1000 };
const open: UrlPolicy = { ...strict, allowPrivate: true };
const specs = (type: Parameters<typeof senderFor>[0]) => senderFor(type).configKeys;

/** the 400's field and message, or "ok" */
async function verdict(type: Parameters<typeof senderFor>[0], raw: Record<string, unknown>, policy = strict): Promise<string> {
  try {
    await checkConfig(type, specs(type), raw, policy);
    return "ok";
  } catch (err) {
    if (!(err instanceof GatewayError) || err.status !== 400) throw err;
    return `${err.metadata?.field}: ${err.message}`;
  }
}

test("defaults are filled in, given values kept, headers passed through", async () => {
  expect(await checkConfig("langsmith", specs("langsmith"), { apiKey: "lsv2" }, strict)).toEqual({
    apiKey: "lsv2",
    endpoint: "https://api.smith.langchain.com",
    project: "main",
  });
  expect(await checkConfig("webhook", specs("webhook"), { url: "https://h.example.com/x", headers: { "X-A": "1" } }, strict)).toEqual({
    url: "https://h.example.com/x",
    method: "POST",
    headers: { "X-A": "1" },
  });
  expect(await checkConfig("newrelic", specs("newrelic"), { licenseKey: "k", region: "eu" }, strict)).toEqual({ licenseKey: "k", region: "eu" });
});

test("every fault is a 400 naming the key", async () => {
  expect(await verdict("arize", { spaceKey: "s", modelId: "m" })).toBe("config.apiKey: Invalid 'config.apiKey': required for type 'arize'");
  expect(await verdict("newrelic", { licenseKey: "k", region: "asia" })).toBe("config.region: Invalid 'config.region': expected one of 'us', 'eu', got 'asia'");
  expect(await verdict("webhook", { url: "https://h.example.com", method: "GET" })).toBe(
    "config.method: Invalid 'config.method': expected one of 'POST', 'PUT', got 'GET'",
  );
  expect(
    await verdict("sentry", { dsn: "http://key@o1.ingest.sentry.io/12", otlpEndpoint: "https://o1.ingest.sentry.io/api/12/integration/otlp/v1/traces" }),
  ).toStartWith("config.dsn: Invalid 'config.dsn': not in the expected format");
  expect(
    await verdict("sentry", { dsn: "https://key@o1.ingest.sentry.io/12", otlpEndpoint: "https://o1.ingest.sentry.io/api/12/integration/otlp/v1/traces" }),
  ).toBe("ok");
  expect(await verdict("sentry", { dsn: "https://key:secret@sentry.example.com/path/to/34/", otlpEndpoint: "https://sentry.example.com/x" })).toBe("ok");
  expect(await verdict("webhook", { url: "https://h.example.com", extra: "x" })).toBe(
    "config.extra: Invalid 'config.extra': unknown key: type 'webhook' takes url, method, headers",
  );
  expect(await verdict("grafana", { apiKey: 5, instanceId: "1" })).toBe("config.apiKey: Invalid 'config.apiKey': expected a string");
  expect(await verdict("webhook", { url: "http://127.0.0.1:9/x" })).toBe("config.url: Invalid 'config.url': must use https");
  expect(await verdict("webhook", { url: "https://127.0.0.1:9/x" })).toStartWith("config.url: Invalid 'config.url': address 127.0.0.1 ");
  expect(await verdict("webhook", { url: "http://127.0.0.1:9/x" }, open)).toBe("ok");
  expect(await verdict("webhook", { url: "https://h.example.com", headers: { Host: "evil" } })).toBe(
    "config.headers.Host: Invalid 'config.headers.Host': set by the gateway itself",
  );
  expect(await verdict("webhook", { url: "https://h.example.com", headers: { "X-A": "a\r\nb" } })).toStartWith("config.headers.X-A: ");
  expect(await verdict("webhook", { url: "https://h.example.com", headers: { "bad name": "a" } })).toBe(
    "config.headers.bad name: Invalid 'config.headers.bad name': not a valid header name",
  );
  expect(await verdict("webhook", { url: "https://h.example.com", headers: ["x"] })).toStartWith("config.headers: ");
  expect(await verdict("grafana", { apiKey: "glc_…", instanceId: "1" })).toBe(
    "config.apiKey: Invalid 'config.apiKey': a masked value cannot be saved: send the secret itself",
  );
});

test("a contract spec's pattern and oneOf apply to any type (a native sender's keys are checked the same way)", async () => {
  const account: ConfigKeySpec[] = [{ key: "account", required: true, pattern: /^[A-Za-z0-9_]+([.-][A-Za-z0-9_]+)*$/ }];
  await expect(checkConfig("snowflake", account, { account: "eac52885.us-east-1" }, strict)).resolves.toEqual({ account: "eac52885.us-east-1" });
  await expect(checkConfig("snowflake", account, { account: "bad account!" }, strict)).rejects.toMatchObject({
    status: 400,
    metadata: { field: "config.account" },
  });
});

test("merge: unset keys keep their value, masked secrets and masked header values keep the stored ones, null resets", () => {
  const langfuse = specs("langfuse");
  const stored = {
    publicKey: "pk",
    secretKey: "sk-lf-stored-secret",
    baseUrl: "https://a.example.com",
    headers: { "X-Token": "stored-token-123", "X-Keep": "k" },
  };
  expect(mergeConfig(langfuse, stored, { baseUrl: "https://b.example.com" })).toEqual({ ...stored, baseUrl: "https://b.example.com" });
  expect(mergeConfig(langfuse, stored, { secretKey: maskSecret(stored.secretKey), publicKey: "pk2" })).toEqual({ ...stored, publicKey: "pk2" });
  expect(mergeConfig(langfuse, stored, { secretKey: "sk-new" }).secretKey).toBe("sk-new");
  expect(mergeConfig(langfuse, stored, { headers: { "x-token": "…", "X-New": "n" } }).headers).toEqual({ "x-token": "stored-token-123", "X-New": "n" });
  expect(mergeConfig(langfuse, stored, { baseUrl: null }).baseUrl).toBeUndefined();
});

test("property: a mask never contains more than the secret's first 4 characters, and always reads as masked", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 64 }), (secret) => {
      const mask = maskSecret(secret);
      expect(isMasked(mask)).toBe(true);
      expect(mask.length).toBeLessThanOrEqual(5);
      expect(secret.startsWith(mask.slice(0, -1))).toBe(true);
      if (secret.length < 12) expect(mask).toBe("…");
    }),
  );
});
