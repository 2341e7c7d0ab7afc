// Each OTLP type against a loopback recorder: the URL it posts to, its auth headers exactly as its
// receiver reads them, and the attributes of its own names.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import type { Destination, DestinationType } from "../../../../src/observability/contract";
import { senderFor } from "../../../../src/observability/senders";
import { startHttpRecorder } from "../../../support/http-recorder";
import { destinationOf, observedGeneration } from "../fixtures";
import { loopbackDeps } from "../loopback-sender-deps";
import { attributesOf, spanNamed } from "./otlp-json";

const recorder = startHttpRecorder();
afterAll(() => recorder.stop());
beforeEach(() => recorder.reset());

async function sendTo(type: DestinationType, config: Destination["config"], extra: Partial<Destination> = {}) {
  const deps = loopbackDeps(recorder);
  const outcome = await senderFor(type).send(
    observedGeneration({ trace: { trace_name: "checkout", team: "payments" } }),
    destinationOf(type, config, extra),
    deps,
  );
  expect(outcome).toEqual({ kind: "delivered" });
  expect(recorder.requests).toHaveLength(1);
  const request = recorder.requests[0]!;
  return { url: deps.urls[0]!, request, body: recorder.json(0), root: attributesOf(spanNamed(recorder.json(0), "LLM Generation").attributes) };
}

const decodeBasic = (header: string | undefined) => Buffer.from(header!.replace(/^Basic /, ""), "base64").toString();

describe("OTLP profiles", () => {
  test("otel-collector: the endpoint as given, the user's headers, JSON", async () => {
    const { url, request } = await sendTo("otel-collector", {
      endpoint: "https://api.axiom.co/v1/traces",
      headers: { Authorization: "Bearer xaat-1", "X-Axiom-Dataset": "llm" },
    });
    expect(url).toBe("https://api.axiom.co/v1/traces");
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/traces");
    expect(request.headers.authorization).toBe("Bearer xaat-1");
    expect(request.headers["x-axiom-dataset"]).toBe("llm");
    expect(request.headers["content-type"]).toBe("application/json");
  });

  test("webhook: POST by default, PUT when configured", async () => {
    expect((await sendTo("webhook", { url: "https://hooks.example.com/otlp?k=1", method: "POST" })).request.method).toBe("POST");
    recorder.reset();
    const put = await sendTo("webhook", { url: "https://hooks.example.com/otlp?k=1", method: "PUT" });
    expect(put.request.method).toBe("PUT");
    expect(put.request.path).toBe("/otlp");
    expect(put.request.query).toBe("k=1");
  });

  test("grafana: {baseUrl}/otlp/v1/traces, Basic instanceId:apiKey", async () => {
    const { url, request } = await sendTo("grafana", {
      apiKey: "glc_secret",
      instanceId: "123456",
      baseUrl: "https://otlp-gateway-prod-eu-west-2.grafana.net/",
    });
    expect(url).toBe("https://otlp-gateway-prod-eu-west-2.grafana.net/otlp/v1/traces");
    expect(decodeBasic(request.headers.authorization)).toBe("123456:glc_secret");
  });

  test("newrelic: the region's endpoint, api-key, and attributes cut at 4095 characters", async () => {
    const us = await sendTo("newrelic", { licenseKey: "nr-license", region: "us" });
    expect(us.url).toBe("https://otlp.nr-data.net/v1/traces");
    expect(us.request.headers["api-key"]).toBe("nr-license");
    recorder.reset();
    const long = "word ".repeat(2000);
    const deps = loopbackDeps(recorder);
    await senderFor("newrelic").send(
      observedGeneration({ output: { text: long, toolCalls: [] } }),
      destinationOf("newrelic", { licenseKey: "nr-license", region: "eu" }),
      deps,
    );
    expect(deps.urls[0]).toBe("https://otlp.eu01.nr-data.net/v1/traces");
    const span = spanNamed(recorder.json(0), "LLM Generation");
    const attrs = attributesOf(span.attributes);
    expect((attrs["gen_ai.completion"] as string).length).toBe(4095);
    expect((attrs["gen_ai.completion"] as string).endsWith("[truncated]")).toBe(true);
    expect(attrs["gen_ai.completion.truncated"]).toBe(true);
    expect(span.events.map((e) => [e.name, attributesOf(e.attributes)])).toEqual([
      ["openrouter.trace_truncated", { "openrouter.truncated_keys": ["gen_ai.completion", "gen_ai.output.messages"] }],
    ]);
  });

  test("sentry: the OTLP endpoint as given, x-sentry-auth with the DSN's public key", async () => {
    const { url, request } = await sendTo("sentry", {
      dsn: "https://abc123public@o4505.ingest.us.sentry.io/4506789",
      otlpEndpoint: "https://o4505.ingest.us.sentry.io/api/4506789/integration/otlp/v1/traces",
    });
    expect(url).toBe("https://o4505.ingest.us.sentry.io/api/4506789/integration/otlp/v1/traces");
    expect(request.headers["x-sentry-auth"]).toBe("sentry sentry_key=abc123public");
  });

  test("langfuse: Basic publicKey:secretKey, ingestion version 4, langfuse.* attributes, trace fields on every span", async () => {
    const { url, request, body, root } = await sendTo("langfuse", { publicKey: "pk-lf-1", secretKey: "sk-lf-2", baseUrl: "https://cloud.langfuse.com" });
    expect(url).toBe("https://cloud.langfuse.com/api/public/otel/v1/traces");
    expect(decodeBasic(request.headers.authorization)).toBe("pk-lf-1:sk-lf-2");
    expect(request.headers["x-langfuse-ingestion-version"]).toBe("4");
    expect(root).toMatchObject({
      "langfuse.observation.type": "generation",
      "langfuse.trace.name": "checkout",
      "langfuse.trace.metadata.team": "payments",
      "langfuse.session.id": "sess-9",
      "langfuse.user.id": "end-user-7",
      "langfuse.observation.completion_start_time": "2026-06-01T12:00:00.250Z",
      "langfuse.observation.cost_details": JSON.stringify({ input: 0.00012, output: 0.00006, total: 0.00018 }),
      "langfuse.observation.usage_details": JSON.stringify({ input: 120, output: 30, cache_read_input_tokens: 20, reasoning_tokens: 5, total: 150 }),
      "langfuse.observation.output": JSON.stringify([{ role: "assistant", content: "4" }]),
    });
    const attempt = attributesOf(spanNamed(body, "provider attempt 1: flaky").attributes);
    expect(attempt["langfuse.trace.name"]).toBe("checkout");
    expect(attempt["langfuse.session.id"]).toBe("sess-9");
  });

  test("langsmith: {endpoint}/otel/v1/traces, x-api-key, the project, x-tenant-id only when a workspace is set", async () => {
    const { url, request, root } = await sendTo("langsmith", {
      apiKey: "lsv2_key",
      endpoint: "https://eu.api.smith.langchain.com",
      project: "main",
      workspaceId: "ws-77",
    });
    expect(url).toBe("https://eu.api.smith.langchain.com/otel/v1/traces");
    expect(request.headers["x-api-key"]).toBe("lsv2_key");
    expect(request.headers["langsmith-project"]).toBe("main");
    expect(request.headers["x-tenant-id"]).toBe("ws-77");
    expect(root).toMatchObject({
      "langsmith.span.kind": "llm",
      "langsmith.trace.name": "checkout",
      "langsmith.trace.session_id": "sess-9",
      "langsmith.metadata.team": "payments",
    });
    recorder.reset();
    expect(
      (await sendTo("langsmith", { apiKey: "lsv2_key", endpoint: "https://api.smith.langchain.com", project: "main" })).request.headers["x-tenant-id"],
    ).toBeUndefined();
  });

  test("arize: {baseUrl}/v1/traces, both header spellings, the model id on the resource, OpenInference attributes", async () => {
    const { url, request, body, root } = await sendTo("arize", {
      apiKey: "ak-1",
      spaceKey: "space-2",
      modelId: "my-project",
      baseUrl: "https://otlp.arize.com",
    });
    expect(url).toBe("https://otlp.arize.com/v1/traces");
    expect([request.headers.space_id, request.headers.api_key, request.headers["arize-space-id"], request.headers["arize-api-key"]]).toEqual([
      "space-2",
      "ak-1",
      "space-2",
      "ak-1",
    ]);
    expect(attributesOf(body.resourceSpans[0].resource.attributes)).toEqual({
      "service.name": "openrouter",
      model_id: "my-project",
      "openinference.project.name": "my-project",
    });
    expect(root).toMatchObject({
      "openinference.span.kind": "LLM",
      "llm.model_name": "acme/chat",
      "llm.provider": "mock",
      "llm.token_count.prompt": 120,
      "llm.token_count.completion": 30,
      "llm.token_count.total": 150,
      "llm.input_messages.0.message.role": "system",
      "llm.input_messages.0.message.content": "Be brief.",
      "output.value": "4",
      "input.mime_type": "application/json",
      metadata: JSON.stringify({ team: "payments" }),
    });
  });

  test("ramp: the base URL as given, Bearer key", async () => {
    const { url, request } = await sendTo("ramp", { apiKey: "ramp-key", baseUrl: "https://api.ramp.com/developer/v1/ai-usage/openrouter" });
    expect(url).toBe("https://api.ramp.com/developer/v1/ai-usage/openrouter");
    expect(request.headers.authorization).toBe("Bearer ramp-key");
  });

  test("a user's header never replaces an auth header, whatever its case; other user headers go along", async () => {
    const { request } = await sendTo("grafana", {
      apiKey: "real",
      instanceId: "1",
      baseUrl: "https://g.example.com",
      headers: { AUTHORIZATION: "Basic forged", "Content-Type": "text/plain", "X-Team": "a" },
    });
    expect(decodeBasic(request.headers.authorization)).toBe("1:real");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-team"]).toBe("a");
  });
});
