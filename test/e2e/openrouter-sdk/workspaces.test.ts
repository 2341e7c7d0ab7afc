import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { allPages, type SdkHarness, startSdkHarness } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
  // organization members are created through the gateway's own API (the SDK has no create op)
  for (const id of ["ann", "bob"]) {
    const res = await h.gw.api("/api/v1/organization/members", {
      method: "POST",
      json: { id, email: `${id}@example.com`, name: `${id} Smith`, role: "member" },
    });
    if (res.status !== 201) throw new Error(`add member ${id}: ${res.status} ${await res.text()}`);
  }
});
afterAll(() => h.close());

describe("workspaces via @openrouter/sdk", () => {
  test("create echoes every field sent; get returns the same workspace", async () => {
    const created = await h.admin.workspaces.create({
      createWorkspaceRequest: {
        name: "Research",
        slug: "research",
        description: "R&D",
        defaultTextModel: "acme/chat",
        defaultImageModel: null,
        defaultProviderSort: "price",
        ioLoggingSamplingRate: 0.5,
        isObservabilityBroadcastEnabled: true,
      },
    });
    const w = created.data;
    expect(w).toMatchObject({
      name: "Research",
      slug: "research",
      description: "R&D",
      defaultTextModel: "acme/chat",
      defaultImageModel: null,
      defaultProviderSort: "price",
      ioLoggingSamplingRate: 0.5,
      isObservabilityBroadcastEnabled: true,
      isObservabilityIoLoggingEnabled: false,
      isDataDiscountLoggingEnabled: false,
      updatedAt: null,
    });
    expect(typeof w.defaultGuardrailId).toBe("string");
    expect((await h.admin.workspaces.get({ id: w.id })).data).toEqual(w);
    // slugs are accepted wherever an id is
    expect((await h.admin.workspaces.get({ id: "research" })).data.id).toBe(w.id);
  });

  test("update changes only the fields sent", async () => {
    const { data } = await h.admin.workspaces.create({ createWorkspaceRequest: { name: "Edit me", slug: "edit-me" } });
    const updated = await h.admin.workspaces.update({ id: data.id, updateWorkspaceRequest: { name: "Edited", description: "now described" } });
    expect(updated.data).toMatchObject({ id: data.id, name: "Edited", slug: "edit-me", description: "now described" });
    expect(typeof updated.data.updatedAt).toBe("string");
  });

  test("list pages with totalCount; delete removes", async () => {
    await h.admin.workspaces.create({ createWorkspaceRequest: { name: "Doomed", slug: "doomed" } });
    const first = await h.admin.workspaces.list({ limit: 1 });
    expect(first.result.data.length).toBe(1);
    const total = first.result.totalCount;
    expect(total).toBeGreaterThanOrEqual(2);
    const pages = await allPages(await h.admin.workspaces.list({ limit: 1 }));
    expect(pages.flatMap((p) => p.data).length).toBe(total);
    const slugs = pages.flatMap((p) => p.data.map((w) => w.slug));
    expect(slugs).toContain("default");
    expect(slugs).toContain("doomed");

    expect((await h.admin.workspaces.delete({ id: "doomed" })).deleted).toBe(true);
    const after = await h.admin.workspaces.list({ limit: 100 });
    expect(after.result.data.some((w) => w.slug === "doomed")).toBe(false);
    expect(after.result.totalCount).toBe(total - 1);
  });

  test("members: bulk add, list, bulk remove", async () => {
    const { data: ws } = await h.admin.workspaces.create({ createWorkspaceRequest: { name: "Team", slug: "team" } });
    const added = await h.admin.workspaces.bulkAddMembers({ id: ws.id, bulkAddWorkspaceMembersRequest: { userIds: ["ann", "bob"] } });
    expect(added.addedCount).toBe(2);
    expect(added.data.map((m) => [m.userId, m.workspaceId, m.role]).sort()).toEqual([
      ["ann", ws.id, "member"],
      ["bob", ws.id, "member"],
    ]);

    const listed = await h.admin.workspaces.listMembers({ id: ws.id });
    expect(listed.result.data.map((m) => m.userId).sort()).toEqual(["ann", "bob"]);
    expect(listed.result.totalCount).toBe(2);

    const removed = await h.admin.workspaces.bulkRemoveMembers({ id: ws.id, bulkRemoveWorkspaceMembersRequest: { userIds: ["bob"] } });
    expect(removed.removedCount).toBe(1);
    const left = await h.admin.workspaces.listMembers({ id: ws.id });
    expect(left.result.data.map((m) => m.userId)).toEqual(["ann"]);
  });

  test("organization.listMembers returns the users with camelCased names", async () => {
    const page = await h.admin.organization.listMembers({ limit: 100 });
    const ann: unknown = page.result.data.find((m) => m.id === "ann");
    // the SDK's role enum is "org:admin" | "org:member" (open); the gateway answers "admin" | "member" | "owner"
    expect(ann).toEqual({ id: "ann", email: "ann@example.com", firstName: "ann", lastName: "Smith", role: "member" });
    expect(page.result.totalCount).toBe(page.result.data.length);
    // a member created without an email lists as "" (the SDK requires a string)
    const res = await h.gw.api("/api/v1/organization/members", { method: "POST", json: { id: "noemail", role: "member" } });
    expect(res.status).toBe(201);
    const again = await h.admin.organization.listMembers({ limit: 100 });
    expect(again.result.data.find((m) => m.id === "noemail")?.email).toBe("");
  });
});
