import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  BadRequestResponseError,
  ForbiddenResponseError,
  NotFoundResponseError,
  PaymentRequiredResponseError,
  UnauthorizedResponseError,
} from "@openrouter/sdk/models/errors";
import { createInferenceKey } from "../../support/gateway";
import { expectTyped, providerSlug, type SdkHarness, sdk, startSdkHarness } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

const hi = [{ role: "user" as const, content: "hi" }];

describe("typed errors via @openrouter/sdk", () => {
  test("401: an unknown key", async () => {
    const bad = sdk(h.gw, "sk-gw-v1-not-a-real-key");
    await expectTyped(() => bad.apiKeys.getCurrentKeyMetadata(), UnauthorizedResponseError, 401);
    await expectTyped(() => bad.chat.send({ chatRequest: { model: "acme/chat", messages: hi } }), UnauthorizedResponseError, 401);
    await expectTyped(() => bad.presets.list(), UnauthorizedResponseError, 401);
  });

  test("403: an inference key on management operations", async () => {
    await expectTyped(() => h.client.apiKeys.create({ requestBody: { name: "nope" } }), ForbiddenResponseError, 403);
    await expectTyped(() => h.client.workspaces.create({ createWorkspaceRequest: { name: "Nope", slug: "nope" } }), ForbiddenResponseError, 403);
    await expectTyped(() => h.client.byok.create({ createBYOKKeyRequest: { provider: providerSlug("solo"), key: "sk-x" } }), ForbiddenResponseError, 403);
  });

  test("404: unknown key, workspace, BYOK credential, preset, model and generation", async () => {
    await expectTyped(() => h.admin.apiKeys.get({ hash: "0".repeat(64) }), NotFoundResponseError, 404);
    await expectTyped(() => h.admin.workspaces.get({ id: "no-such-ws" }), NotFoundResponseError, 404);
    await expectTyped(() => h.admin.byok.get({ id: crypto.randomUUID() }), NotFoundResponseError, 404);
    await expectTyped(() => h.admin.presets.get({ slug: "no-such-preset" }), NotFoundResponseError, 404);
    await expectTyped(() => h.client.models.get({ author: "acme", slug: "missing" }), NotFoundResponseError, 404);
    await expectTyped(() => h.client.endpoints.list({ author: "acme", slug: "missing" }), NotFoundResponseError, 404);
    await expectTyped(() => h.client.generations.getGeneration({ id: "gen-missing" }), NotFoundResponseError, 404);
    await expectTyped(() => h.client.chat.send({ chatRequest: { model: "acme/missing", messages: hi } }), NotFoundResponseError, 404);
  });

  test("400: bodies the SDK sends but the gateway rejects", async () => {
    await expectTyped(() => h.admin.apiKeys.create({ requestBody: { name: "" } }), BadRequestResponseError, 400);
    await expectTyped(() => h.admin.workspaces.create({ createWorkspaceRequest: { name: "Bad", slug: "Not A Slug" } }), BadRequestResponseError, 400);
    await expectTyped(() => h.client.chat.send({ chatRequest: { model: "acme/chat", messages: [] } }), BadRequestResponseError, 400);
    await expectTyped(() => h.client.embeddings.generate({ requestBody: { model: "acme/embed", input: [] } }), BadRequestResponseError, 400);
  });

  test("402: a key whose limit is 0 on chat.send and responses.send", async () => {
    const { key } = await createInferenceKey(h.gw, { name: "broke", limit: 0 });
    const broke = sdk(h.gw, key);
    const before = h.up.requests.length;
    await expectTyped(() => broke.chat.send({ chatRequest: { model: "acme/chat", messages: hi } }), PaymentRequiredResponseError, 402);
    await expectTyped(() => broke.chat.send({ chatRequest: { model: "acme/chat", messages: hi, stream: true } }), PaymentRequiredResponseError, 402);
    await expectTyped(() => broke.responses.send({ responsesRequest: { model: "acme/chat", input: "hi" } }), PaymentRequiredResponseError, 402);
    expect(h.up.requests.length).toBe(before);
  });
});
