// POST /generation/feedback through @openrouter/sdk; the stored feedback in the generation's
// record and the error cases through plain fetch.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { type SdkHarness, startSdkHarness } from "./setup";

let h: SdkHarness;
let generationId: string;
beforeAll(async () => {
  h = await startSdkHarness();
  h.up.enqueue({ text: "ok", usage: { input: 3, output: 2 } });
  const res = await fetch(`${h.gw.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "acme/chat", messages: [{ role: "user", content: "hi" }] }),
  });
  generationId = res.headers.get("x-generation-id")!;
  await res.text();
});
afterAll(() => h.close());

const feedback = (body: unknown, key?: string) => h.gw.api("/api/v1/generation/feedback", { method: "POST", json: body, key });

describe("generation feedback", () => {
  test("stored with the generation and listed in its record, oldest first", async () => {
    expect(await h.client.generations.submitFeedback({ submitGenerationFeedbackRequest: { generationId, category: "latency", comment: "took 9 s" } })).toEqual({
      data: { success: true },
    });
    const teammate = await createInferenceKey(h.gw, { name: "teammate" });
    expect((await feedback({ generation_id: generationId, category: "incorrect_response" }, teammate.key)).status).toBe(200);
    expect(
      await h.admin.generations.submitFeedback({ submitGenerationFeedbackRequest: { generationId, category: "billing", comment: "x".repeat(1000) } }),
    ).toEqual({ data: { success: true } });
    const record = ((await (await h.gw.api(`/api/v1/generation?id=${generationId}`, { key: h.key })).json()) as any).data;
    expect(record.feedback.map((f: any) => [f.category, f.comment])).toEqual([
      ["latency", "took 9 s"],
      ["incorrect_response", null],
      ["billing", "x".repeat(1000)],
    ]);
    expect(record.feedback.every((f: any) => !Number.isNaN(Date.parse(f.created_at)))).toBe(true);
  });

  test("unknown generations and generations of another workspace are 404", async () => {
    const unknown = await feedback({ generation_id: "gen-nope", category: "other" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { code: 404, message: "Generation not found: gen-nope" } });
    await h.admin.workspaces.create({ createWorkspaceRequest: { name: "Elsewhere", slug: "elsewhere" } });
    const outsider = await createInferenceKey(h.gw, { workspace_id: "elsewhere" });
    const foreign = await feedback({ generation_id: generationId, category: "other" }, outsider.key);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: { code: 404, message: `Generation not found: ${generationId}` } });
  });

  test("bad input is 400 naming the field", async () => {
    const field = async (body: unknown) => {
      const res = await feedback(body);
      return [res.status, ((await res.json()) as any).error.metadata?.field];
    };
    expect(await field({ generation_id: generationId, category: "rude" })).toEqual([400, "category"]);
    expect(await field({ generation_id: generationId })).toEqual([400, "category"]);
    expect(await field({ category: "other" })).toEqual([400, "generation_id"]);
    expect(await field({ generation_id: "", category: "other" })).toEqual([400, "generation_id"]);
    expect(await field({ generation_id: generationId, category: "other", comment: "x".repeat(1001) })).toEqual([400, "comment"]);
    expect(await field({ generation_id: generationId, category: "other", rating: 5 })).toEqual([400, "rating"]);
    expect(((await (await h.gw.api(`/api/v1/generation?id=${generationId}`)).json()) as any).data.feedback.length).toBe(3);
  });
});
