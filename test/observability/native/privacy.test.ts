/**
 * Privacy mode for every native type: when the pipeline has removed the content (input and
 * output null), no byte any sender sends holds the prompt, the completion or the tool
 * definitions; everything else (tokens, cost, model, user, session) still goes out. A control
 * run with the content shows the canaries would be seen.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import type { Destination, DestinationType } from "../../../src/observability/contract";
import { nativeSenders } from "../../../src/observability/native";
import { jsonAnswer, startNativeRecorder } from "../../support/native-recorder";
import { loopbackDeps } from "../../support/native-sender-deps";
import {
  COMPLETION_CANARY,
  chatGeneration,
  destinationOf,
  embeddingGeneration,
  PROMPT_CANARY,
  TOOL_CANARY,
  videoGeneration,
  withoutContent,
} from "../../support/observed-generation";
import { startS3Mock } from "../../support/s3-mock";

const receiver = startNativeRecorder();
const s3 = startS3Mock();
afterAll(() => {
  receiver.stop();
  s3.stop();
});
beforeEach(() => {
  receiver.reset();
  receiver.setDefault(jsonAnswer(200, { ok: true }));
  s3.objects.clear();
  s3.requests.length = 0;
});

const CONFIGS: Record<string, Record<string, unknown>> = {
  braintrust: { apiKey: "k", projectId: "p", baseUrl: receiver.url },
  clickhouse: { host: receiver.url, database: "db", username: "u", password: "pw", table: "T" },
  datadog: { apiKey: "k", mlApp: "app", url: receiver.url },
  opik: { apiKey: "k", workspace: "w", projectName: "p" },
  posthog: { apiKey: "phc_k", endpoint: receiver.url },
  s3: { bucketName: "b", accessKeyId: "AKID", secretAccessKey: "s", region: "us-east-1", endpoint: s3.url, prefix: "p", pathTemplate: "{prefix}/{date}" },
  snowflake: { account: "acct", token: "t", database: "DB", schema: "PUBLIC", table: "T", warehouse: "WH" },
  weave: { apiKey: "k", entity: "e", project: "p", baseUrl: receiver.url },
};

const deps = () => loopbackDeps({ "www.comet.com": receiver.url, "acct.snowflakecomputing.com": receiver.url });
const destinationFor = (type: DestinationType): Destination => destinationOf(type, CONFIGS[type]!, { privacyMode: true });

/** Every byte that left: requests to the recorder, S3 request lines and stored objects. */
const everythingSent = () =>
  [receiver.everything(), ...s3.requests.map((r) => r.line), ...[...s3.objects.values()].map((o) => new TextDecoder().decode(o.bytes))].join("\n");

describe.each(nativeSenders.map((sender) => [sender.type, sender] as const))("%s", (type, sender) => {
  test("with the content removed, no canary is sent, and the figures still are", async () => {
    for (const generation of [chatGeneration(), embeddingGeneration(), videoGeneration()]) {
      expect(await sender.send(withoutContent(generation), destinationFor(type), deps())).toEqual({ kind: "delivered" });
    }
    const sent = everythingSent();
    expect(sent.length).toBeGreaterThan(0);
    for (const canary of [PROMPT_CANARY, COMPLETION_CANARY, TOOL_CANARY]) expect(sent).not.toContain(canary);
    expect(sent).toContain("acme/alpha");
    expect(sent).toContain("end-user-7");
    expect(sent).toContain("session-42");
  });

  test("control: with the content, the canaries are sent", async () => {
    await sender.send(chatGeneration(), destinationFor(type), deps());
    const sent = everythingSent();
    expect(sent).toContain(PROMPT_CANARY);
    expect(sent).toContain(COMPLETION_CANARY);
  });
});

test("every native type is tested here", () => {
  expect(nativeSenders.map((s) => s.type).sort()).toEqual(Object.keys(CONFIGS).sort() as DestinationType[]);
});
