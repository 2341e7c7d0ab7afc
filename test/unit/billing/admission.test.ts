import { describe, expect, test } from "bun:test";
import { admit, worstCaseNanos } from "../../../src/billing/admission";
import { windowKeys } from "../../../src/billing/windows";
import { priceTable } from "../../../src/catalog/build-catalog";
import type { Candidate } from "../../../src/gateway/candidates";
import type { Principal } from "../../../src/http/principal";
import type { IRRequest } from "../../../src/ir/types";
import { createSqliteStore } from "../../../src/store/sqlite";
import { NO_RATE_LIMIT } from "../../../src/store/store";

const now = Date.parse("2026-11-22T12:00:00Z");
const lease = { instanceId: "test", leaseMs: 60_000 };

function candidate(isByok: boolean, maxCompletionTokens: number | null = 100): Candidate {
  const provider = {
    slug: isByok ? "byok-p" : "own-p",
    name: "p",
    api: "openai-chat" as const,
    baseUrl: "http://127.0.0.1:9/v1",
    headers: {},
    zdr: false,
    dataCollection: "allow" as const,
  };
  const endpoint = {
    id: `${provider.slug}/m`,
    modelId: "a/m",
    provider,
    upstreamModel: "m",
    pricing: priceTable({ prompt: "0.000001", completion: "0.00001", request: "0.0005" }),
    pricingStrings: {},
    contextLength: 1000,
    maxCompletionTokens,
    quantization: null,
    supportedParameters: [],
  };
  return {
    endpoint,
    model: {
      id: "a/m",
      name: "m",
      description: "",
      contextLength: 1000,
      inputModalities: ["text"],
      outputModalities: ["text"],
      endpoints: [endpoint],
      created: 0,
    },
    apiKey: "k",
    isByok,
  };
}

const ir = (maxOutputTokens?: number): IRRequest => ({
  messages: [{ role: "user", content: [{ type: "text", text: "héllo" }] }],
  stream: false,
  sentParameters: [],
  maxOutputTokens,
});

function principal(limitNanos: number | null, includeByokInLimit = false): Principal {
  const key = {
    hash: `h${Math.random()}`,
    name: "k",
    label: "l",
    isManagement: false,
    disabled: false,
    workspaceId: "w",
    creatorUserId: null,
    externalUser: null,
    limitNanos,
    limitReset: null,
    includeByokInLimit,
    rateLimit: NO_RATE_LIMIT,
    expiresAt: null,
    alertThresholds: null,
    createdAt: 0,
    updatedAt: null,
  };
  return { key, workspace: {} as Principal["workspace"], user: null, isManagement: false };
}

describe("admission", () => {
  test("worst case: every prompt byte a token, all allowed output, the request price", () => {
    // "héllo" is 6 bytes + 8 per message = 14 prompt tokens
    expect(worstCaseNanos(candidate(false), 14, undefined, 0)).toBe(14 * 1000 + 100 * 10_000 + 500_000);
    expect(worstCaseNanos(candidate(false), 14, 10, 0)).toBe(14 * 1000 + 10 * 10_000 + 500_000);
    // no cap anywhere: the rest of the context window
    expect(worstCaseNanos(candidate(false, null), 14, undefined, 0)).toBe(14 * 1000 + 986 * 10_000 + 500_000);
  });

  test("reserves the worst case and refuses what does not fit", async () => {
    const store = createSqliteStore(":memory:");
    const p = principal(2_000_000);
    const first = await admit(store, p, [candidate(false)], ir(), "r1", now, lease);
    expect(first.reservationId).toBe("r1");
    expect(await store.reservations.held(p.key.hash)).toBe(1_514_000);
    await expect(admit(store, p, [candidate(false)], ir(), "r2", now, lease)).rejects.toThrow("could cost up to more than");
    await store.reservations.release("r1");
    expect((await admit(store, p, [candidate(false)], ir(), "r3", now, lease)).reservationId).toBe("r3");
  });

  test("a key with nothing left may still use BYOK credentials that do not count against its limit", async () => {
    const store = createSqliteStore(":memory:");
    const p = principal(1000);
    await store.usage.add(p.key.hash, { nanos: 1000, byok: false, windows: windowKeys(now) });
    const both = [candidate(false), candidate(true)];
    const admitted = await admit(store, p, both, ir(), "r1", now, lease);
    expect(admitted.candidates.map((c) => c.isByok)).toEqual([true]);
    expect(admitted.reservationId).toBeNull();
    // with include_byok_in_limit the BYOK spend counts, so nothing is left for it either
    await expect(admit(store, principal(0, true), both, ir(), "r2", now, lease)).rejects.toThrow("spending limit");
  });
});
