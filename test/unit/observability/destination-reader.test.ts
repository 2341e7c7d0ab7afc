// The DestinationReader over the cached store: configs opened, the enabled destinations of a
// workspace cached and cleared by every write on every instance, byId always fresh.
import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSecretBox } from "../../../src/crypto/secret-box";
import { silentLogger } from "../../../src/logger";
import { destinationReader } from "../../../src/observability/destination-reader";
import { otlpSenders } from "../../../src/observability/otlp";
import { sealConfig } from "../../../src/observability/sealed-config";
import { createSharedState, type InvalidationBus, type SharedState } from "../../../src/shared-state";
import { createMemorySharedState } from "../../../src/shared-state/memory";
import { withReadCache } from "../../../src/store/cached-store";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { destination } from "../../store/contract/destinations";
import { tempDir } from "../../support/gateway";
import { cleanupPrefix, describeRedis, uniquePrefix } from "../../support/redis";

const box = createSecretBox(new Uint8Array(32).fill(7));
/** the reader builds its box from the config when it has none; this one has it */
const sealing = { config: { secretKey: undefined, databasePath: ":memory:" }, secrets: box };
const langfuseKeys = otlpSenders.find((s) => s.type === "langfuse")!.configKeys;
/** a cache lifetime far longer than any test: a value that changes did so through the bus */
const LONG_TTL = { ttlMs: 600_000 };

let dir: string;
let store: Store;
beforeEach(() => {
  dir = tempDir("gw-reader-");
  store = createSqliteStore(join(dir, "gateway.db"));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function storedLangfuse(id: string) {
  const open = {
    publicKey: "pk-lf-public",
    secretKey: "sk-lf-0123456789secret",
    baseUrl: "https://cloud.langfuse.com",
    headers: { "X-Team": "payments-team-token" },
  };
  const sealed = await sealConfig(langfuseKeys, open, box);
  await store.destinations.create(destination(id, "ws-1", 1000, { type: "langfuse", ...sealed }));
  return { open, sealed };
}

const bus = (): InvalidationBus => createMemorySharedState("one", silentLogger).bus;

test("configs are stored masked and sealed, and read back opened: secrets and headers in clear", async () => {
  const { open, sealed } = await storedLangfuse("d1");
  expect(sealed.config).toEqual({ publicKey: "pk-lf-public", secretKey: "sk-l…", baseUrl: "https://cloud.langfuse.com", headers: { "X-Team": "paym…" } });
  expect(JSON.stringify(sealed.sealedConfig)).not.toContain("0123456789secret");
  const reader = destinationReader(withReadCache(store, bus()), sealing);
  const [d] = await reader.enabledForWorkspace("ws-1");
  expect(d!.config).toEqual(open);
  expect(d!.type).toBe("langfuse");
  expect((await reader.byId("d1"))!.config).toEqual(open);
  expect(await reader.byId("nope")).toBeNull();
});

test("enabledForWorkspace is cached; a write through the cached store clears it at once; byId reads the store every time", async () => {
  await storedLangfuse("d1");
  const reader = destinationReader(withReadCache(store, bus(), LONG_TTL), sealing);
  const cached = withReadCache(store, bus(), LONG_TTL);
  const sameInstance = destinationReader(cached, sealing);
  expect((await sameInstance.enabledForWorkspace("ws-1")).map((d) => d.id)).toEqual(["d1"]);
  // a write that bypasses every cache (another process on the file): the cached list stays, byId sees it
  await store.destinations.update("d1", { name: "renamed" }, 2000);
  expect((await sameInstance.enabledForWorkspace("ws-1"))[0]!.name).toBe("destination d1");
  expect((await sameInstance.byId("d1"))!.name).toBe("renamed");
  // a write through this instance's cached store clears its cache at once
  await cached.destinations.update("d1", { enabled: false }, 3000);
  expect(await sameInstance.enabledForWorkspace("ws-1")).toEqual([]);
  expect((await sameInstance.byId("d1"))!.enabled).toBe(false);
  expect((await reader.enabledForWorkspace("ws-1")).length).toBe(0);
});

test("a creation inside a transaction clears the cache once it commits", async () => {
  const cached = withReadCache(store, bus(), LONG_TTL);
  const reader = destinationReader(cached, sealing);
  expect(await reader.enabledForWorkspace("ws-1")).toEqual([]);
  await cached.transaction((tx) => tx.destinations.create(destination("d2", "ws-1", 1000)));
  expect((await reader.enabledForWorkspace("ws-1")).map((d) => d.id)).toEqual(["d2"]);
});

describeRedis("destinations cache across instances", (url) => {
  const prefix = uniquePrefix("destinations");
  const opened: SharedState[] = [];
  const instance = async (id: string) => {
    const shared = await createSharedState({ redisUrl: url, prefix, instanceId: id, logger: silentLogger });
    opened.push(shared);
    const cached = withReadCache(store, shared.bus, LONG_TTL);
    return { cached, reader: destinationReader(cached, sealing) };
  };
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()));
    await cleanupPrefix(url, prefix);
  });

  /** A's enabled destinations, read until `done` says so or a second passed; a cache hit resolves without I/O, so each read waits a millisecond first */
  async function readUntil(reader: ReturnType<typeof destinationReader>, done: (ids: string[]) => boolean): Promise<{ ids: string[]; ms: number }> {
    const start = performance.now();
    let ids: string[] = [];
    do {
      await Bun.sleep(1);
      ids = (await reader.enabledForWorkspace("ws-1")).map((d) => d.id);
    } while (!done(ids) && performance.now() - start < 1_000);
    return { ids, ms: performance.now() - start };
  }

  test("a destination disabled on instance B leaves instance A's cache within 100 ms; one created on B reaches A too", async () => {
    await storedLangfuse("d1");
    const a = await instance("a");
    const b = await instance("b");
    expect((await a.reader.enabledForWorkspace("ws-1")).map((d) => d.id)).toEqual(["d1"]);
    await b.cached.destinations.update("d1", { enabled: false }, 2000);
    const disabled = await readUntil(a.reader, (ids) => ids.length === 0);
    expect(disabled.ids).toEqual([]);
    expect(disabled.ms).toBeLessThan(100);
    await b.cached.destinations.create(destination("d3", "ws-1", 3000));
    const created = await readUntil(a.reader, (ids) => ids.length > 0);
    expect(created.ids).toEqual(["d3"]);
    expect(created.ms).toBeLessThan(100);
  });
});

describe("reader in a job worker (no cache)", () => {
  test("over the bare store every read is fresh", async () => {
    await storedLangfuse("d1");
    const reader = destinationReader(store, sealing);
    expect((await reader.enabledForWorkspace("ws-1")).length).toBe(1);
    await store.destinations.delete("d1", 5000);
    expect(await reader.enabledForWorkspace("ws-1")).toEqual([]);
    expect(await reader.byId("d1")).toBeNull();
  });
});
