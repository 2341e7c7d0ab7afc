// The answers `@openrouter/sdk` validates with zod, read by the release installed (1.3.19) and by
// the last 0.11 release, whose schemas are stricter in two places: a chat completion must carry
// `system_fingerprint` (a string or null; a stream chunk's may only be a string or absent) and a
// Responses result's `top_logprobs` must be a number or absent (null is allowed from 0.12.0 on).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OpenRouter } from "@openrouter/sdk";
import { OpenRouter as OpenRouter011 } from "@openrouter/sdk-0-11";
import type { MockTurn } from "../../support/mock-upstream";
import { drain, result, type SdkHarness, startSdkHarness, unknownParts } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

const options = () => ({ apiKey: h.key, serverURL: `${h.gw.url}/api/v1`, retryConfig: { strategy: "none" as const } });

/**
 * 0.11 has the same calls under the same camelCase names, `responses` under `beta`; it is seen
 * through the current release's types, and each call is still checked by its own zod schemas.
 */
function release011(): OpenRouter {
  const client = new OpenRouter011(options());
  return { chat: client.chat, responses: client.beta.responses, callModel: client.callModel.bind(client) } as unknown as OpenRouter;
}

const RELEASES: Array<{ name: string; client: () => OpenRouter }> = [
  { name: "1.3.19", client: () => new OpenRouter(options()) },
  { name: "0.11.2", client: release011 },
];

/** The upstream's chat answer, or each of its stream chunks, with `system_fingerprint` removed or set. */
const fingerprint =
  (value: string | undefined): MockTurn["alter"] =>
  (body) => {
    if (body === null || typeof body !== "object" || !("system_fingerprint" in body)) return body;
    const { system_fingerprint: _, ...rest } = body;
    return value === undefined ? rest : { ...rest, system_fingerprint: value };
  };

/** The upstream's Responses answer (JSON body, or the `response` of each stream event) with this `top_logprobs`. */
const topLogprobs =
  (value: number | null | undefined): MockTurn["alter"] =>
  (body) => {
    const set = (response: Record<string, unknown>) => {
      const { top_logprobs: _, ...rest } = response;
      return value === undefined ? rest : { ...rest, top_logprobs: value };
    };
    if (body?.object === "response") return set(body);
    return body?.response ? { ...body, response: set(body.response) } : body;
  };

const hi = [{ role: "user" as const, content: "hi" }];

for (const release of RELEASES) {
  describe(`@openrouter/sdk ${release.name}: chat completions`, () => {
    test("a passthrough answer whose upstream left out system_fingerprint reads as null", async () => {
      h.up.enqueue({ text: "ok", alter: fingerprint(undefined) });
      const res = result(await release.client().chat.send({ chatRequest: { model: "acme/chat", messages: hi } }));
      expect(res.choices[0]!.message.content).toBe("ok");
      expect(res.systemFingerprint).toBeNull();
    });

    test("the upstream's own system_fingerprint passes through", async () => {
      h.up.enqueue({ text: "ok", alter: fingerprint("fp_up1") });
      const res = result(await release.client().chat.send({ chatRequest: { model: "acme/chat", messages: hi } }));
      expect(res.systemFingerprint).toBe("fp_up1");
    });

    test("a translated answer (Responses upstream) carries system_fingerprint null", async () => {
      h.up.enqueue({ text: "ok" });
      const res = result(await release.client().chat.send({ chatRequest: { model: "acme/resp", messages: hi } }));
      expect(res.choices[0]!.message.content).toBe("ok");
      expect(res.systemFingerprint).toBeNull();
    });

    for (const upstream of [undefined, "fp_up2"]) {
      test(`passthrough stream chunks parse (upstream fingerprint ${upstream ?? "absent"})`, async () => {
        h.up.enqueue({ text: ["o", "k"], alter: fingerprint(upstream) });
        const chunks = await drain(await release.client().chat.send({ chatRequest: { model: "acme/chat", messages: hi, stream: true } }));
        expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("ok");
        // a string or nothing: the chunk schema refuses null
        expect(new Set(chunks.map((c) => c.systemFingerprint))).toEqual(new Set([upstream]));
      });
    }
  });

  describe(`@openrouter/sdk ${release.name}: responses`, () => {
    const cases: Array<[string, string, number | null | undefined, number | undefined, number]> = [
      // [label, model, upstream top_logprobs, request top_logprobs, expected]
      ["passthrough, upstream 0", "acme/resp", 0, undefined, 0],
      ["passthrough, upstream 3", "acme/resp", 3, 3, 3],
      ["passthrough, upstream null", "acme/resp", null, undefined, 0],
      ["passthrough, upstream absent", "acme/resp", undefined, undefined, 0],
      ["translated (chat upstream)", "acme/chat", undefined, undefined, 0],
      ["translated, asked for 2", "acme/chat", undefined, 2, 2],
    ];
    for (const [label, model, upstream, asked, expected] of cases) {
      test(`JSON: top_logprobs is ${expected} (${label})`, async () => {
        h.up.enqueue({ text: "Bonjour", alter: topLogprobs(upstream) });
        const res = result(
          await release.client().responses.send({ responsesRequest: { model, input: "hi", ...(asked === undefined ? {} : { topLogprobs: asked }) } }),
        );
        expect(unknownParts(res)).toEqual([]);
        expect(res.status).toBe("completed");
        expect(res.topLogprobs).toBe(expected);
      });

      test(`stream: every response object has top_logprobs ${expected} (${label})`, async () => {
        h.up.enqueue({ text: ["Bon", "jour"], alter: topLogprobs(upstream) });
        const events = await drain(
          await release
            .client()
            .responses.send({ responsesRequest: { model, input: "hi", stream: true, ...(asked === undefined ? {} : { topLogprobs: asked }) } }),
        );
        expect(unknownParts(events)).toEqual([]);
        const responses = events.flatMap((e) => ("response" in e ? [e.response] : []));
        expect(responses.map((r) => r.status)).toEqual(["in_progress", "in_progress", "completed"]);
        expect(responses.map((r) => r.topLogprobs)).toEqual([expected, expected, expected]);
      });
    }

    for (const model of ["acme/resp", "acme/chat"]) {
      test(`callModel reads the streamed answer and its text (${model})`, async () => {
        h.up.enqueue({ text: ["Sa", "lut"] });
        const call = release.client().callModel({ model, input: "hi" });
        expect(await call.getText()).toBe("Salut");
        expect((await call.getResponse()).topLogprobs).toBe(0);
      });
    }
  });
}
