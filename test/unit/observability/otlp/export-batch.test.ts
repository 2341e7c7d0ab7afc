// The traces of several generations in one export (the first attempts of a drain), against a
// loopback recorder: what reaches the wire, and each generation's outcome.
import { afterAll, beforeEach, expect, test } from "bun:test";
import type { ObservedGeneration } from "../../../../src/observability/contract";
import { OTLP_PROFILES } from "../../../../src/observability/otlp";
import { exportBody, exportRequest, spansJson } from "../../../../src/observability/otlp/export-request";
import { arizeProfile } from "../../../../src/observability/otlp/profiles/arize";
import { webhookProfile } from "../../../../src/observability/otlp/profiles/webhook";
import { senderFor } from "../../../../src/observability/senders";
import { startHttpRecorder } from "../../../support/http-recorder";
import { destinationOf, observedGeneration } from "../fixtures";
import { loopbackDeps } from "../loopback-sender-deps";

const recorder = startHttpRecorder();
afterAll(() => recorder.stop());
beforeEach(() => recorder.reset());

const webhook = () => destinationOf("webhook", { url: `${recorder.url}/otlp`, method: "POST", headers: { "X-Team": "a" } });
const generations = (n: number): ObservedGeneration[] => Array.from({ length: n }, (_, i) => observedGeneration({ id: `gen-${i + 1}` }));
const sentSpans = () => recorder.requests.map((r) => JSON.parse(r.body).resourceSpans[0].scopeSpans[0].spans as unknown[]);
const spansOfOne = (g: ObservedGeneration) => exportRequest(g, webhook(), webhookProfile).resourceSpans[0]!.scopeSpans[0]!.spans;

test("an export of one generation is, byte for byte, the JSON of its export request, for every OTLP profile", () => {
  const arize = destinationOf("arize", { apiKey: "ak", spaceKey: "sk", modelId: "m-1", baseUrl: "https://otlp.arize.com" });
  const g = observedGeneration();
  expect(exportBody([spansJson(g, arize, arizeProfile)], arize, arizeProfile)).toBe(JSON.stringify(exportRequest(g, arize, arizeProfile)));
  for (const profile of OTLP_PROFILES) {
    const d = destinationOf(profile.type, {});
    expect(exportBody([spansJson(g, d, profile)], d, profile)).toBe(JSON.stringify(exportRequest(g, d, profile)));
  }
});

test("several generations go in one export: one resource and scope, every generation's spans in order, the destination's headers; each is delivered", async () => {
  const gs = generations(3);
  const outcomes = await senderFor("webhook").sendMany!(gs, webhook(), loopbackDeps(recorder));
  expect(outcomes).toEqual([{ kind: "delivered" }, { kind: "delivered" }, { kind: "delivered" }]);
  expect(recorder.requests).toHaveLength(1);
  const [request] = recorder.requests;
  expect([request!.path, request!.headers["x-team"], request!.headers["content-type"]]).toEqual(["/otlp", "a", "application/json"]);
  const body = JSON.parse(request!.body);
  expect(body.resourceSpans).toHaveLength(1);
  expect(body.resourceSpans[0].resource).toEqual(exportRequest(gs[0]!, webhook(), webhookProfile).resourceSpans[0]!.resource);
  expect(sentSpans()[0]).toEqual(JSON.parse(JSON.stringify(gs.flatMap(spansOfOne))));
});

test("a refusal the content may cause (400) is sent again in halves: only the generation it is about fails, the others are delivered", async () => {
  // [1-4] refused, [1,2] taken, [3,4] refused, [3] refused, [4] taken
  recorder.script(
    { status: 400, text: "bad span" },
    { status: 200, json: {} },
    { status: 400, text: "bad span" },
    { status: 400, text: "bad span" },
    { status: 200, json: {} },
  );
  const gs = generations(4);
  const outcomes = await senderFor("webhook").sendMany!(gs, webhook(), loopbackDeps(recorder));
  expect(outcomes).toEqual([{ kind: "delivered" }, { kind: "delivered" }, { kind: "failed", reason: "answered 400: bad span" }, { kind: "delivered" }]);
  const perGeneration = spansOfOne(gs[0]!).length;
  expect(sentSpans().map((spans) => spans.length / perGeneration)).toEqual([4, 2, 2, 1, 1]);
});

test("a 503 ends the sending: every generation takes the retry, after one request; a 401 likewise fails them all at once", async () => {
  recorder.script({ status: 503, text: "busy", headers: { "retry-after": "12" } });
  expect(await senderFor("webhook").sendMany!(generations(3), webhook(), loopbackDeps(recorder))).toEqual(
    Array(3).fill({ kind: "retry", reason: "answered 503: busy", afterSeconds: 12 }),
  );
  recorder.script({ status: 401, text: "who are you" });
  expect(await senderFor("webhook").sendMany!(generations(3), webhook(), loopbackDeps(recorder))).toEqual(
    Array(3).fill({ kind: "failed", reason: "answered 401: who are you" }),
  );
  expect(recorder.requests).toHaveLength(2);
});

test("a partial success is final for the generations of that export (OTLP: not retried)", async () => {
  recorder.script({ status: 200, json: { partialSuccess: { rejectedSpans: "1", errorMessage: "too long" } } });
  expect(await senderFor("webhook").sendMany!(generations(2), webhook(), loopbackDeps(recorder))).toEqual(
    Array(2).fill({ kind: "failed", reason: "partial success: 1 span(s) rejected: too long" }),
  );
});
