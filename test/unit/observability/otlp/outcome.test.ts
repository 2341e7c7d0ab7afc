// What the OTLP senders make of a receiver's answers (send and connection test), against a
// loopback recorder scripted with each answer.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { senderDepsOf } from "../../../../src/observability/sender-http";
import { senderFor } from "../../../../src/observability/senders";
import { type ScriptedAnswer, startHttpRecorder } from "../../../support/http-recorder";
import { destinationOf, observedGeneration, T0 } from "../fixtures";
import { loopbackDeps } from "../loopback-sender-deps";

const recorder = startHttpRecorder();
afterAll(() => recorder.stop());
beforeEach(() => recorder.reset());

const webhook = () => destinationOf("webhook", { url: `${recorder.url}/otlp`, method: "POST", headers: { "X-Team": "a" } });

async function sendAnswered(answer: ScriptedAnswer) {
  recorder.script(answer);
  return senderFor("webhook").send(observedGeneration(), webhook(), loopbackDeps(recorder));
}

test("200 (empty or without rejected spans) and other 2xx are delivered", async () => {
  expect(await sendAnswered({ status: 200, json: {} })).toEqual({ kind: "delivered" });
  expect(await sendAnswered({ status: 200, json: { partialSuccess: { rejectedSpans: "0", errorMessage: "" } } })).toEqual({ kind: "delivered" });
  expect(await sendAnswered({ status: 202 })).toEqual({ kind: "delivered" });
});

test("a partial success that rejected spans has failed for good (resending them is rejected the same way)", async () => {
  expect(await sendAnswered({ status: 200, json: { partialSuccess: { rejectedSpans: "2", errorMessage: "span too large" } } })).toEqual({
    kind: "failed",
    reason: "partial success: 2 span(s) rejected: span too large",
  });
  expect(await sendAnswered({ status: 200, json: { partialSuccess: { rejectedSpans: 1 } } })).toEqual({
    kind: "failed",
    reason: "partial success: 1 span(s) rejected",
  });
});

test("400, 401, 413 and 500 fail for good, quoting the answer", async () => {
  expect(await sendAnswered({ status: 400, json: { error: "bad span" } })).toEqual({ kind: "failed", reason: 'answered 400: {"error":"bad span"}' });
  expect(await sendAnswered({ status: 401, text: "unauthorized" })).toEqual({ kind: "failed", reason: "answered 401: unauthorized" });
  expect(await sendAnswered({ status: 413, text: "" })).toEqual({ kind: "failed", reason: "answered 413" });
  expect(await sendAnswered({ status: 500, text: "boom" })).toEqual({ kind: "failed", reason: "answered 500: boom" });
});

test("429, 502, 503, 504 are retried, after Retry-After in seconds or as an HTTP date", async () => {
  expect(await sendAnswered({ status: 429, text: "slow down", headers: { "retry-after": "7" } })).toEqual({
    kind: "retry",
    reason: "answered 429: slow down",
    afterSeconds: 7,
  });
  const date = new Date(T0 + 30_000).toUTCString();
  expect(await sendAnswered({ status: 503, text: "", headers: { "retry-after": date } })).toEqual({ kind: "retry", reason: "answered 503", afterSeconds: 30 });
  expect(await sendAnswered({ status: 502 })).toEqual({ kind: "retry", reason: "answered 502" });
  expect(await sendAnswered({ status: 504 })).toEqual({ kind: "retry", reason: "answered 504" });
});

test("a dropped connection is retried; a URL the operator's policy refuses fails without a request", async () => {
  const dropped = await sendAnswered("drop");
  expect(dropped.kind).toBe("retry");
  expect((dropped as { reason: string }).reason).toStartWith("no answer: ");
  const before = recorder.requests.length;
  const strict = senderDepsOf({ config: { security: { allowPrivateUrls: false } }, clock: () => T0 });
  const refused = await senderFor("webhook").send(observedGeneration(), webhook(), strict);
  expect(refused).toEqual({ kind: "failed", reason: "the URL is refused: must use https" });
  expect(recorder.requests.length).toBe(before);
});

test("the connection test: an empty export with X-Test-Connection and the real headers; any 2xx passes", async () => {
  const grafana = destinationOf("grafana", { apiKey: "glc", instanceId: "42", baseUrl: "https://g.example.com", headers: { "X-Team": "a" } });
  expect(await senderFor("grafana").probe(grafana, loopbackDeps(recorder))).toEqual({ ok: true });
  const [request] = recorder.requests;
  expect(request!.method).toBe("POST");
  expect(request!.path).toBe("/otlp/v1/traces");
  expect(request!.body).toBe('{"resourceSpans":[]}');
  expect(request!.headers["x-test-connection"]).toBe("true");
  expect(request!.headers.authorization).toBe(`Basic ${Buffer.from("42:glc").toString("base64")}`);
  expect(request!.headers["x-team"]).toBe("a");
  recorder.script({ status: 204 });
  expect(await senderFor("webhook").probe(destinationOf("webhook", { url: `${recorder.url}/in`, method: "PUT" }), loopbackDeps(recorder))).toEqual({
    ok: true,
  });
  expect(recorder.requests[1]!.method).toBe("PUT");
});

test("a failed connection test says what the destination answered, with a hint for credentials and wrong URLs", async () => {
  const d = webhook();
  recorder.script({ status: 401, json: { message: "invalid token" } }, { status: 404, text: "Not Found" }, { status: 500, text: "x".repeat(500) }, "drop");
  const deps = loopbackDeps(recorder);
  expect(await senderFor("webhook").probe(d, deps)).toEqual({
    ok: false,
    message: 'the destination answered 401: {"message":"invalid token"} (the credentials were refused)',
  });
  expect(await senderFor("webhook").probe(d, deps)).toEqual({
    ok: false,
    message: `the destination answered 404: Not Found (nothing receives traces at ${recorder.url}/otlp)`,
  });
  expect(await senderFor("webhook").probe(d, deps)).toEqual({ ok: false, message: `the destination answered 500: ${"x".repeat(200)}…` });
  const dropped = await senderFor("webhook").probe(d, deps);
  expect(dropped.ok).toBe(false);
  expect((dropped as { message: string }).message).toStartWith(`no answer from ${recorder.url}/otlp: `);
});
