import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { allPages, result, type SdkHarness, startSdkHarness } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

describe("presets via @openrouter/sdk", () => {
  test("createPresetsChatCompletions makes version 1 from a chat body", async () => {
    const res = await h.admin.presets.createPresetsChatCompletions({
      slug: "chatty",
      chatRequest: {
        model: "acme/chat",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hi" },
        ],
        temperature: 0.25,
        maxTokens: 64,
      },
    });
    const p = res.data;
    expect(p).toMatchObject({ slug: "chatty", name: "chatty", description: null, status: "active", statusUpdatedAt: null });
    expect(p.designatedVersion?.version).toBe(1);
    expect(p.designatedVersion?.presetId).toBe(p.id);
    expect(p.designatedVersionId).toBe(p.designatedVersion!.id);
    expect(p.designatedVersion?.config).toMatchObject({ model: "acme/chat", temperature: 0.25, max_tokens: 64 });
    expect(p.designatedVersion?.systemPrompt).toBe("Be brief.");
  });

  test("createPresetsResponses and createPresetsMessages version one slug as 1 and 2", async () => {
    const v1 = await h.admin.presets.createPresetsResponses({
      slug: "multi",
      responsesRequest: { model: "acme/resp", instructions: "Formal.", temperature: 0.5 },
    });
    expect(v1.data.designatedVersion?.version).toBe(1);
    expect(v1.data.designatedVersion?.config).toMatchObject({ model: "acme/resp", temperature: 0.5 });
    expect(v1.data.designatedVersion?.systemPrompt).toBe("Formal.");

    const v2 = await h.admin.presets.createPresetsMessages({
      slug: "multi",
      messagesRequest: { model: "acme/chat", maxTokens: 100, system: "Terse.", messages: [{ role: "user", content: "hi" }] },
    });
    expect(v2.data.id).toBe(v1.data.id);
    expect(v2.data.designatedVersion?.version).toBe(2);
    expect(v2.data.designatedVersion?.config).toMatchObject({ model: "acme/chat", max_tokens: 100 });
    expect(v2.data.designatedVersion?.systemPrompt).toBe("Terse.");
  });

  test("get, getVersion, listVersions and list", async () => {
    for (const temperature of [0.1, 0.2, 0.3]) {
      await h.admin.presets.createPresetsChatCompletions({
        slug: "thrice",
        chatRequest: { model: "acme/chat", messages: [{ role: "user", content: "x" }], temperature },
      });
    }
    const got = await h.admin.presets.get({ slug: "thrice" });
    expect(got.data.designatedVersion?.version).toBe(3);
    expect(got.data.designatedVersion?.config).toMatchObject({ temperature: 0.3 });

    const v2 = await h.admin.presets.getVersion({ slug: "thrice", version: "2" });
    expect(v2.data?.version).toBe(2);
    expect(v2.data?.presetId).toBe(got.data.id);
    expect(v2.data?.config).toMatchObject({ model: "acme/chat", temperature: 0.2 });

    const versions = await allPages(await h.admin.presets.listVersions({ slug: "thrice", limit: 2 }));
    expect(versions.map((p) => p.totalCount)).toEqual([3, 3]);
    expect(versions.flatMap((p) => p.data.map((v) => v?.version))).toEqual([1, 2, 3]);

    const list = await h.admin.presets.list({ limit: 100 });
    expect(list.result.data.map((p) => p.slug).sort()).toEqual(["chatty", "multi", "thrice"]);
    expect(list.result.totalCount).toBe(list.result.data.length);
    const thrice = list.result.data.find((p) => p.slug === "thrice")!;
    expect(thrice.designatedVersionId).toBe(got.data.designatedVersionId);
  });

  test("an inference key can use a preset it cannot manage", async () => {
    await h.admin.presets.createPresetsChatCompletions({
      slug: "usable",
      chatRequest: { model: "acme/chat", messages: [{ role: "user", content: "x" }], maxTokens: 7 },
    });
    h.up.enqueue({ text: "from preset", usage: { input: 3, output: 2 } });
    const res = result(await h.client.chat.send({ chatRequest: { model: "@preset/usable", messages: [{ role: "user", content: "go" }] } }));
    expect(res.choices[0]!.message.content).toBe("from preset");
    expect(h.up.requests.at(-1)!.body.max_tokens).toBe(7);
  });
});
