// Guardrails through @openrouter/sdk 1.3.19 (its zod schemas check every answer): the 13
// operations, PATCH semantics, the workspace's default guardrail, assignments; statuses and
// validation errors through plain fetch.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { OpenRouter } from "@openrouter/sdk";
import { BadRequestResponseError, NotFoundResponseError } from "@openrouter/sdk/models/errors";
import { createInferenceKey } from "../../support/gateway";
import { allPages, expectTyped, type SdkHarness, startSdkHarness } from "./setup";

let h: SdkHarness;
let admin: OpenRouter;
let defaultWorkspace: string;

beforeAll(async () => {
  h = await startSdkHarness();
  admin = h.admin;
  defaultWorkspace = (await h.gw.ctx.store.workspaces.getDefault())!.id;
});
afterAll(() => h.close());

const post = (path: string, json: unknown, key?: string | null) => h.gw.api(`/api/v1${path}`, { method: "POST", json, key });
const patch = (path: string, json: unknown) => h.gw.api(`/api/v1${path}`, { method: "PATCH", json });

async function errorOf(res: Response) {
  return { status: res.status, body: (await res.json()) as { error: { code: number; message: string; metadata?: Record<string, unknown> } } };
}

describe("guardrails CRUD via @openrouter/sdk", () => {
  test("create (201) answers every field; get, update and delete; the list is paged per workspace", async () => {
    const created = await admin.guardrails.create({
      createGuardrailRequest: {
        name: "Team A",
        description: "keys of team A",
        limitUsd: 50,
        resetInterval: "monthly",
        allowedModels: ["acme/chat", "acme/resp"],
        ignoredProviders: ["solo"],
        enforceZdrOpenai: true,
        allowedDataRegions: ["global"],
        contentFilterBuiltins: [
          { slug: "email", action: "redact", label: "ignored" },
          { slug: "regex-prompt-injection", action: "block", scanScope: "user_only" },
        ],
        contentFilters: [{ pattern: "ACME-\\d{4}", action: "redact", label: "[PROJECT]" }],
      },
    });
    const g = created.data;
    expect(g).toEqual({
      id: g.id,
      name: "Team A",
      description: "keys of team A",
      workspaceId: defaultWorkspace,
      limitUsd: 50,
      resetInterval: "monthly",
      includeByokInBudgets: false,
      allowedModels: ["acme/chat", "acme/resp"],
      ignoredModels: null,
      allowedProviders: null,
      ignoredProviders: ["solo"],
      enforceZdr: null,
      enforceZdrAnthropic: null,
      enforceZdrOpenai: true,
      enforceZdrGoogle: null,
      enforceZdrXai: null,
      enforceZdrOther: null,
      enableFreeModelPublication: null,
      enableFreeModelTraining: null,
      enablePaidModelTraining: null,
      allowedDataRegions: ["global"],
      contentFilterBuiltins: [
        { slug: "email", action: "redact", label: "[EMAIL]" },
        { slug: "regex-prompt-injection", action: "block", label: "[PROMPT_INJECTION]", scanScope: "user_only" },
      ],
      contentFilters: [{ pattern: "ACME-\\d{4}", action: "redact", label: "[PROJECT]" }],
      createdAt: g.createdAt,
      updatedAt: null,
    });
    expect(g.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await admin.guardrails.get({ id: g.id })).data).toEqual(g);

    // PATCH: omitted fields stay, null clears, a list replaces the whole list
    const updated = (
      await admin.guardrails.update({ id: g.id, updateGuardrailRequest: { description: null, allowedModels: ["acme/anth"], contentFilters: null } })
    ).data;
    expect(updated).toEqual({ ...g, description: null, allowedModels: ["acme/anth"], contentFilters: null, updatedAt: updated.updatedAt });
    expect(typeof updated.updatedAt).toBe("string");

    const other = await admin.workspaces.create({ createWorkspaceRequest: { name: "Other", slug: "gr-other" } });
    for (let i = 0; i < 3; i++) await admin.guardrails.create({ createGuardrailRequest: { name: `paged ${i}`, workspaceId: other.data.id } });
    const pages = await allPages(await admin.guardrails.list({ workspaceId: other.data.id, limit: 2 }));
    expect(pages.map((p) => p.data.map((x) => x.name))).toEqual([["paged 0", "paged 1"], ["paged 2"]]);
    expect(pages.map((p) => p.totalCount)).toEqual([3, 3]);
    const mine = (await admin.guardrails.list()).result;
    expect(mine.data.map((x) => x.id)).toContain(g.id);
    expect(mine.data.every((x) => x.workspaceId === defaultWorkspace)).toBe(true);

    expect(await admin.guardrails.delete({ id: g.id })).toEqual({ deleted: true });
    await expectTyped(() => admin.guardrails.get({ id: g.id }), NotFoundResponseError, 404);
    await expectTyped(() => admin.guardrails.delete({ id: g.id }), NotFoundResponseError, 404);
  });

  test("the deprecated enforce_zdr fills in every vendor switch the body does not set", async () => {
    const g = (await admin.guardrails.create({ createGuardrailRequest: { name: "zdr", enforceZdr: true, enforceZdrXai: false } })).data;
    expect([g.enforceZdr, g.enforceZdrAnthropic, g.enforceZdrOpenai, g.enforceZdrGoogle, g.enforceZdrXai, g.enforceZdrOther]).toEqual([
      true,
      true,
      true,
      true,
      false,
      true,
    ]);
  });

  test("a workspace's default guardrail: derived id, readable before it is stored, stored by PATCH, its name fixed", async () => {
    const ws = (await admin.workspaces.get({ id: defaultWorkspace })).data;
    const id = ws.defaultGuardrailId;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const before = (await admin.guardrails.get({ id })).data;
    expect([before.name, before.workspaceId, before.allowedModels, before.updatedAt]).toEqual([
      `Default guardrail of ${ws.name}`,
      defaultWorkspace,
      null,
      null,
    ]);
    const stored = (await admin.guardrails.update({ id, updateGuardrailRequest: { enforceZdrOther: false } })).data;
    expect(stored).toEqual({ ...before, enforceZdrOther: false, updatedAt: stored.updatedAt });
    const renamed = await errorOf(await patch(`/guardrails/${id}`, { name: "mine" }));
    expect(renamed).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: "Invalid field 'name': the name of a workspace's default guardrail is its workspace's and cannot change",
          metadata: { field: "name" },
        },
      },
    });
    const assigned = await errorOf(await post(`/guardrails/${id}/assignments/keys`, { key_hashes: [h.keyHash] }));
    expect(assigned.status).toBe(400);
    await admin.guardrails.delete({ id });
  });
});

describe("assignments via @openrouter/sdk", () => {
  test("keys: assign, move to another guardrail, list (one guardrail's and all), unassign", async () => {
    const a = (await admin.guardrails.create({ createGuardrailRequest: { name: "keys A" } })).data;
    const b = (await admin.guardrails.create({ createGuardrailRequest: { name: "keys B" } })).data;
    const second = await createInferenceKey(h.gw, { name: "second key" });
    expect(await admin.guardrails.bulkAssignKeys({ id: a.id, bulkAssignKeysRequest: { keyHashes: [h.keyHash, second.hash] } })).toEqual({ assignedCount: 2 });
    expect(await admin.guardrails.bulkAssignKeys({ id: a.id, bulkAssignKeysRequest: { keyHashes: [h.keyHash] } })).toEqual({ assignedCount: 0 });
    expect(await admin.guardrails.bulkAssignKeys({ id: b.id, bulkAssignKeysRequest: { keyHashes: [second.hash] } })).toEqual({ assignedCount: 1 });
    const ofA = (await admin.guardrails.listGuardrailKeyAssignments({ id: a.id })).result;
    const key = (await h.gw.ctx.store.keys.get(h.keyHash))!;
    expect(ofA).toEqual({
      data: [
        {
          id: ofA.data[0]!.id,
          keyHash: h.keyHash,
          keyName: key.name,
          keyLabel: key.label,
          guardrailId: a.id,
          assignedBy: "owner",
          createdAt: ofA.data[0]!.createdAt,
        },
      ],
      totalCount: 1,
    });
    const all = (await admin.guardrails.listKeyAssignments()).result;
    expect(all.data.map((x) => [x.keyHash, x.guardrailId])).toEqual([
      [h.keyHash, a.id],
      [second.hash, b.id],
    ]);
    expect(await admin.guardrails.bulkUnassignKeys({ id: a.id, bulkUnassignKeysRequest: { keyHashes: [h.keyHash, second.hash] } })).toEqual({
      unassignedCount: 1,
    });
    await admin.guardrails.delete({ id: b.id });
    expect((await admin.guardrails.listKeyAssignments()).result.totalCount).toBe(0);
  });

  test("members: assign, list with the organization id GET /key names, unassign", async () => {
    const now = h.gw.ctx.clock();
    await h.gw.ctx.store.users.create({ id: "member-1", email: "m1@example.com", name: "M1", role: "member", createdAt: now });
    const g = (await admin.guardrails.create({ createGuardrailRequest: { name: "members" } })).data;
    expect(await admin.guardrails.bulkAssignMembers({ id: g.id, bulkAssignMembersRequest: { memberUserIds: ["member-1"] } })).toEqual({ assignedCount: 1 });
    const organizationId = (await admin.apiKeys.getCurrentKeyMetadata()).data.organizationId;
    const listed = (await admin.guardrails.listGuardrailMemberAssignments({ id: g.id })).result;
    expect(listed.data).toEqual([
      {
        id: listed.data[0]!.id,
        userId: "member-1",
        organizationId: organizationId!,
        guardrailId: g.id,
        assignedBy: "owner",
        createdAt: listed.data[0]!.createdAt,
      },
    ]);
    expect((await admin.guardrails.listMemberAssignments()).result.totalCount).toBe(1);
    expect(await admin.guardrails.bulkUnassignMembers({ id: g.id, bulkUnassignMembersRequest: { memberUserIds: ["member-1"] } })).toEqual({
      unassignedCount: 1,
    });
  });

  test("an unknown guardrail is 404 on every assignment route; an unknown key or user is 400 and nothing is assigned", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    await expectTyped(() => admin.guardrails.bulkAssignKeys({ id: missing, bulkAssignKeysRequest: { keyHashes: [h.keyHash] } }), NotFoundResponseError, 404);
    await expectTyped(
      () => admin.guardrails.bulkUnassignKeys({ id: missing, bulkUnassignKeysRequest: { keyHashes: [h.keyHash] } }),
      NotFoundResponseError,
      404,
    );
    await expectTyped(
      () => admin.guardrails.bulkAssignMembers({ id: missing, bulkAssignMembersRequest: { memberUserIds: ["x"] } }),
      NotFoundResponseError,
      404,
    );
    await expectTyped(
      () => admin.guardrails.bulkUnassignMembers({ id: missing, bulkUnassignMembersRequest: { memberUserIds: ["x"] } }),
      NotFoundResponseError,
      404,
    );
    await expectTyped(() => admin.guardrails.listGuardrailKeyAssignments({ id: missing }), NotFoundResponseError, 404);
    await expectTyped(() => admin.guardrails.listGuardrailMemberAssignments({ id: missing }), NotFoundResponseError, 404);
    const g = (await admin.guardrails.create({ createGuardrailRequest: { name: "strict" } })).data;
    const err = await expectTyped(
      () => admin.guardrails.bulkAssignKeys({ id: g.id, bulkAssignKeysRequest: { keyHashes: [h.keyHash, "no-such-key"] } }),
      BadRequestResponseError,
      400,
    );
    expect(err.error.message).toBe("Invalid field 'key_hashes[1]': no such API key 'no-such-key'");
    expect((await admin.guardrails.listGuardrailKeyAssignments({ id: g.id })).result.totalCount).toBe(0);
    const noUser = await errorOf(await post(`/guardrails/${g.id}/assignments/members`, { member_user_ids: ["ghost"] }));
    expect(noUser.body.error.message).toBe("Invalid field 'member_user_ids[0]': no such user 'ghost'");
  });
});

describe("statuses and validation", () => {
  test("management keys only: no key 401, an inference key 403 before its body is read", async () => {
    expect((await h.gw.api("/api/v1/guardrails", { key: null })).status).toBe(401);
    const routes: Array<[string, string]> = [
      ["GET", "/guardrails"],
      ["POST", "/guardrails"],
      ["GET", "/guardrails/x"],
      ["PATCH", "/guardrails/x"],
      ["DELETE", "/guardrails/x"],
      ["GET", "/guardrails/x/assignments/keys"],
      ["POST", "/guardrails/x/assignments/keys"],
      ["POST", "/guardrails/x/assignments/keys/remove"],
      ["GET", "/guardrails/x/assignments/members"],
      ["POST", "/guardrails/x/assignments/members"],
      ["POST", "/guardrails/x/assignments/members/remove"],
      ["GET", "/guardrails/assignments/keys"],
      ["GET", "/guardrails/assignments/members"],
    ];
    for (const [method, path] of routes) {
      const body = method === "POST" || method === "PATCH" ? { nonsense: [] } : undefined;
      const res = await h.gw.api(`/api/v1${path}`, { method, json: body, key: h.key });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe("This operation requires a management key");
    }
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ["empty name", { name: "" }, "name"],
    ["name over 200", { name: "n".repeat(201) }, "name"],
    ["description over 1000", { name: "n", description: "d".repeat(1001) }, "description"],
    ["limit without its window", { name: "n", limit_usd: 5 }, "reset_interval"],
    ["window without a limit", { name: "n", reset_interval: "daily" }, "limit_usd"],
    ["an unknown interval", { name: "n", limit_usd: 5, reset_interval: "hourly" }, "reset_interval"],
    ["an empty allow list", { name: "n", allowed_models: [] }, "allowed_models"],
    ["an empty provider list", { name: "n", ignored_providers: [] }, "ignored_providers"],
    ["an empty region list", { name: "n", allowed_data_regions: [] }, "allowed_data_regions"],
    ["an unknown region", { name: "n", allowed_data_regions: ["mars"] }, "allowed_data_regions"],
    ["an unknown action", { name: "n", content_filters: [{ pattern: "x", action: "shout" }] }, "content_filters"],
    ["an unknown builtin", { name: "n", content_filter_builtins: [{ slug: "dna", action: "redact" }] }, "content_filter_builtins"],
    ["an empty pattern", { name: "n", content_filters: [{ pattern: "", action: "redact" }] }, "content_filters"],
    ["a label over 100", { name: "n", content_filters: [{ pattern: "x", action: "redact", label: "l".repeat(101) }] }, "content_filters"],
    ["an unknown field", { name: "n", colour: "red" }, "colour"],
  ];
  for (const [what, body, field] of refused)
    test(`create refuses ${what}: 400 naming ${field}`, async () => {
      const { status, body: answer } = await errorOf(await post("/guardrails", body));
      expect(status).toBe(400);
      expect(answer.error.code).toBe(400);
      expect(answer.error.message).toContain(field);
    });

  for (const [what, pattern] of [
    ["lookahead", "secret(?=\\d)"],
    ["lookbehind", "(?<=key:)\\w+"],
    ["a backreference", "(a)\\1"],
    ["a named backreference", "(?<x>a)\\k<x>"],
    ["nested quantifiers", "(a+)+$"],
    ["a pattern that does not compile", "([a-z"],
  ] as const)
    test(`${what} in a custom pattern is invalid_regex_pattern, on create and on update`, async () => {
      const created = await errorOf(
        await post("/guardrails", {
          name: "n",
          content_filters: [
            { pattern: "ok", action: "flag" },
            { pattern, action: "redact" },
          ],
        }),
      );
      expect(created.status).toBe(400);
      expect(created.body.error.message).toStartWith("Invalid field 'content_filters[1].pattern': invalid_regex_pattern: ");
      expect(created.body.error.metadata).toEqual({ field: "content_filters[1].pattern", code: "invalid_regex_pattern" });
      const g = (await admin.guardrails.create({ createGuardrailRequest: { name: "to patch" } })).data;
      const updated = await errorOf(await patch(`/guardrails/${g.id}`, { content_filters: [{ pattern, action: "block" }] }));
      expect(updated.status).toBe(400);
      expect(JSON.stringify(updated.body)).toContain("invalid_regex_pattern");
      expect((await admin.guardrails.get({ id: g.id })).data.contentFilters).toBeNull();
    });

  test("scan_scope only on regex-prompt-injection", async () => {
    const res = await errorOf(
      await post("/guardrails", { name: "n", content_filter_builtins: [{ slug: "email", action: "redact", scan_scope: "user_only" }] }),
    );
    expect(res).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: "Invalid field 'content_filter_builtins[0].scan_scope': only regex-prompt-injection has a scan scope",
          metadata: { field: "content_filter_builtins[0].scan_scope" },
        },
      },
    });
  });

  test("assignment bodies need at least one id", async () => {
    const g = (await admin.guardrails.create({ createGuardrailRequest: { name: "ids" } })).data;
    const res = await errorOf(await post(`/guardrails/${g.id}/assignments/keys`, { key_hashes: [] }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("key_hashes");
  });
});
