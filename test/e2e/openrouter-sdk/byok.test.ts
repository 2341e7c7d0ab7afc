import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Provider } from "@openrouter/sdk/models/operations";
import { allPages, providerSlug, result, type SdkHarness, startSdkHarness } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

const SECRET = "sk-solo-secret-0123456789abcdef";

describe("byok via @openrouter/sdk", () => {
  test("create returns every field as sent, a masked label and never the key", async () => {
    const res = await h.admin.byok.create({
      createBYOKKeyRequest: {
        provider: providerSlug("solo"),
        key: SECRET,
        name: "Solo team",
        isFallback: true,
        declaredZdr: false,
        allowedModels: ["acme/solo"],
      },
    });
    const k = res.data;
    expect(k).toMatchObject({
      provider: "solo",
      name: "Solo team",
      disabled: false,
      isFallback: true,
      isRequired: false,
      isByokOnly: false,
      declaredZdr: false,
      allowedModels: ["acme/solo"],
      allowedUserIds: null,
      allowedApiKeyHashes: null,
    });
    expect(k.label).not.toContain(SECRET);
    expect(k.label.endsWith(SECRET.slice(-4))).toBe(true);
    expect(JSON.stringify(res)).not.toContain(SECRET);
    expect(typeof k.sortOrder).toBe("number");
    expect((await h.admin.byok.get({ id: k.id })).data).toEqual(k);
  });

  test("the credential serves its provider for chat.send", async () => {
    h.up.enqueue({ text: "via byok", usage: { input: 4, output: 1 } });
    const res = result(await h.client.chat.send({ chatRequest: { model: "acme/solo", messages: [{ role: "user", content: "hi" }] } }));
    expect(res.choices[0]!.message.content).toBe("via byok");
    expect(h.up.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  test("update, list (with provider filter and paging) and delete", async () => {
    const a = (await h.admin.byok.create({ createBYOKKeyRequest: { provider: providerSlug("mock"), key: "sk-mock-aaaa1111" } })).data;
    const b = (await h.admin.byok.create({ createBYOKKeyRequest: { provider: providerSlug("mock"), key: "sk-mock-bbbb2222", name: "second" } })).data;

    const updated = await h.admin.byok.update({ id: a.id, updateBYOKKeyRequest: { name: "first", disabled: true, allowedApiKeyHashes: [h.keyHash] } });
    expect(updated.data).toMatchObject({ id: a.id, name: "first", disabled: true, allowedApiKeyHashes: [h.keyHash], provider: "mock" });

    const mocks = await allPages(await h.admin.byok.list({ provider: "mock" as Provider, limit: 1 }));
    // the SDK stops paging at the first short page, so two full pages are followed by an empty one
    expect(mocks.map((p) => [p.data.length, p.totalCount])).toEqual([
      [1, 2],
      [1, 2],
      [0, 2],
    ]);
    expect(mocks.flatMap((p) => p.data.map((k) => k.name)).sort()).toEqual(["first", "second"]);

    const all = await h.admin.byok.list();
    expect(all.result.totalCount).toBe(3);

    expect((await h.admin.byok.delete({ id: b.id })).deleted).toBe(true);
    const left = await h.admin.byok.list({ provider: "mock" as Provider });
    expect(left.result.data.map((k) => k.id)).toEqual([a.id]);
  });
});
