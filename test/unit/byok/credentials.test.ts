import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { CatalogEndpoint, ProviderEntry } from "../../../src/catalog/types";
import { credentialApplies, orderCredentials } from "../../../src/gateway/credentials";
import type { Principal } from "../../../src/http/principal";
import type { ByokRecord } from "../../../src/store/store";

function provider(apiKey?: string): ProviderEntry {
  return { slug: "acme", name: "Acme", api: "openai-chat", baseUrl: "http://127.0.0.1/v1", apiKey, headers: {}, zdr: false, dataCollection: "deny" };
}

function endpoint(apiKey: string | null = "own"): CatalogEndpoint {
  return {
    id: "acme/alpha-2025",
    modelId: "acme/alpha",
    provider: provider(apiKey ?? undefined),
    upstreamModel: "alpha-2025",
    pricing: {
      prompt: 0,
      completion: 0,
      request: 0,
      image: 0,
      inputCacheRead: 0,
      inputCacheWrite: 0,
      inputCacheWrite1h: 0,
      webSearch: 0,
      internalReasoning: 0,
    },
    pricingStrings: {},
    contextLength: 1000,
    maxCompletionTokens: null,
    quantization: null,
    supportedParameters: [],
  };
}

let seq = 0;
function cred(over: Partial<ByokRecord> = {}): ByokRecord {
  seq += 1;
  return {
    id: `c${seq}`,
    workspaceId: "ws",
    provider: "acme",
    name: null,
    label: "****",
    encryptedKey: `key-${seq}`,
    disabled: false,
    isFallback: false,
    isRequired: false,
    isByokOnly: false,
    declaredZdr: null,
    allowedModels: null,
    allowedUserIds: null,
    allowedApiKeyHashes: null,
    sortOrder: seq,
    createdAt: 0,
    updatedAt: null,
    ...over,
  };
}

const principal = (userId: string | null, hash = "h1") =>
  ({ key: { hash }, user: userId ? { id: userId } : null, workspace: { id: "ws" }, isManagement: false }) as unknown as Principal;

const open = (c: ByokRecord) => c.encryptedKey;
const keys = (list: Array<{ apiKey: string; isByok: boolean }>) => list.map((c) => `${c.apiKey}${c.isByok ? "*" : ""}`);

describe("credential order", () => {
  test("BYOK first in the order given, then the own key, then fallbacks", () => {
    const a = cred({ encryptedKey: "a" });
    const f = cred({ encryptedKey: "f", isFallback: true });
    const b = cred({ encryptedKey: "b" });
    expect(keys(orderCredentials(endpoint(), [a, f, b], open))).toEqual(["a*", "b*", "own", "f*"]);
  });

  test("without an own key the fallbacks follow the other credentials", () => {
    const f = cred({ encryptedKey: "f", isFallback: true });
    const a = cred({ encryptedKey: "a" });
    expect(keys(orderCredentials(endpoint(null), [f, a], open))).toEqual(["a*", "f*"]);
    expect(orderCredentials(endpoint(null), [], open)).toEqual([]);
  });

  test("is_byok_only or is_required drop the own key; undecryptable credentials are skipped", () => {
    expect(keys(orderCredentials(endpoint(), [cred({ encryptedKey: "a", isByokOnly: true })], open))).toEqual(["a*"]);
    expect(keys(orderCredentials(endpoint(), [cred({ encryptedKey: "a", isRequired: true }), cred({ encryptedKey: "f", isFallback: true })], open))).toEqual([
      "a*",
      "f*",
    ]);
    expect(
      keys(
        orderCredentials(endpoint(), [cred({ encryptedKey: "bad" }), cred({ encryptedKey: "b" })], (c) => (c.encryptedKey === "bad" ? null : c.encryptedKey)),
      ),
    ).toEqual(["b*", "own"]);
  });

  test("property: every applicable credential appears once, non-fallbacks before the own key before fallbacks", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 12 }), (fallbacks) => {
        const creds = fallbacks.map((isFallback, i) => cred({ encryptedKey: `k${i}`, isFallback }));
        const out = orderCredentials(endpoint(), creds, open).map((c) => c.apiKey);
        expect(out.length).toBe(creds.length + 1);
        const own = out.indexOf("own");
        expect(out.slice(0, own)).toEqual(creds.filter((c) => !c.isFallback).map((c) => c.encryptedKey));
        expect(out.slice(own + 1)).toEqual(creds.filter((c) => c.isFallback).map((c) => c.encryptedKey));
      }),
    );
  });
});

describe("credential filters", () => {
  test("provider must match the endpoint's", () => {
    expect(credentialApplies(cred({ provider: "other" }), endpoint(), principal(null))).toBe(false);
    expect(credentialApplies(cred(), endpoint(), principal(null))).toBe(true);
  });

  test("allowed_models matches the model id, the endpoint id or the upstream model; empty allows all", () => {
    for (const allowed of [["acme/alpha"], ["acme/alpha-2025"], ["alpha-2025"], []]) {
      expect(credentialApplies(cred({ allowedModels: allowed }), endpoint(), principal(null))).toBe(true);
    }
    expect(credentialApplies(cred({ allowedModels: ["acme/beta"] }), endpoint(), principal(null))).toBe(false);
  });

  test("allowed_user_ids needs the key's user; allowed_api_key_hashes the key's hash", () => {
    expect(credentialApplies(cred({ allowedUserIds: ["u1"] }), endpoint(), principal("u1"))).toBe(true);
    expect(credentialApplies(cred({ allowedUserIds: ["u1"] }), endpoint(), principal("u2"))).toBe(false);
    expect(credentialApplies(cred({ allowedUserIds: ["u1"] }), endpoint(), principal(null))).toBe(false);
    expect(credentialApplies(cred({ allowedApiKeyHashes: ["h1"] }), endpoint(), principal(null, "h1"))).toBe(true);
    expect(credentialApplies(cred({ allowedApiKeyHashes: ["h1"] }), endpoint(), principal(null, "h2"))).toBe(false);
  });
});
