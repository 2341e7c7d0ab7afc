/** Contract: SCIM Groups and their members, group mappings, the memberships they made, sync jobs. */
import { describe, expect, test } from "bun:test";
import type { ScimGroupRecord, Store } from "../../../src/store/store";
import { NOW } from "./fixtures";

const group = (id: string, at: number): ScimGroupRecord => ({ id, displayName: `Group ${id}`, externalId: null, createdAt: NOW + at, updatedAt: NOW + at });

export function scimGroupsContract(store: () => Store): void {
  describe("SCIM groups", () => {
    test("groups read back oldest first; members added once, removed, listed sorted; a user's groups; delete takes the members", async () => {
      const s = store();
      await s.transaction(async (tx) => {
        await tx.scimGroups.create(group("g2", 2));
        await tx.scimGroups.create(group("g1", 1));
      });
      expect((await s.scimGroups.list()).map((g) => g.id)).toEqual(["g1", "g2"]);
      expect(await s.scimGroups.addMembers("g1", ["u2", "u1", "u1"])).toEqual(expect.arrayContaining(["u1", "u2"]));
      expect(await s.scimGroups.addMembers("g1", ["u1", "u3"])).toEqual(["u3"]);
      await s.scimGroups.addMembers("g2", ["u1"]);
      expect(await s.scimGroups.members("g1")).toEqual(["u1", "u2", "u3"]);
      expect(await s.scimGroups.removeMembers("g1", ["u2", "nobody"])).toEqual(["u2"]);
      expect((await s.scimGroups.groupsOf("u1")).map((g) => g.id)).toEqual(["g1", "g2"]);
      expect(await s.scimGroups.update("g1", { displayName: "Renamed", externalId: "ext", updatedAt: NOW + 9 })).toEqual({
        ...group("g1", 1),
        displayName: "Renamed",
        externalId: "ext",
        updatedAt: NOW + 9,
      });
      expect((await s.scimGroups.delete("g1"))?.id).toBe("g1");
      expect([await s.scimGroups.get("g1"), await s.scimGroups.members("g1")]).toEqual([undefined, []]);
      expect(await s.scimGroups.removeUser("u1")).toBe(1);
      expect(await s.scimGroups.groupsOf("u1")).toEqual([]);
    });

    test("mappings found by pair, updated, deleted; managed memberships marked once; sync jobs updated", async () => {
      const s = store();
      const mapping = { id: "m1", groupId: "g1", workspaceId: "ws1", role: "member" as const, createdAt: NOW, updatedAt: NOW };
      await s.transaction((tx) => tx.scimMappings.create(mapping));
      expect([await s.scimMappings.find("g1", "ws1"), await s.scimMappings.find("g1", "ws2")]).toEqual([mapping, undefined]);
      expect(await s.scimMappings.update("m1", { role: "admin", updatedAt: NOW + 1 })).toEqual({ ...mapping, role: "admin", updatedAt: NOW + 1 });
      expect((await s.scimMappings.list()).map((m) => m.role)).toEqual(["admin"]);
      expect((await s.scimMappings.delete("m1"))?.id).toBe("m1");
      expect(await s.scimMappings.get("m1")).toBeUndefined();
      await s.scimMappings.markManaged("ws1", "u1");
      await s.scimMappings.markManaged("ws1", "u1");
      await s.scimMappings.markManaged("ws2", "u1");
      expect((await s.scimMappings.managedWorkspacesOf("u1")).sort()).toEqual(["ws1", "ws2"]);
      await s.scimMappings.unmarkManaged("ws1", "u1");
      expect(await s.scimMappings.managedWorkspacesOf("u1")).toEqual(["ws2"]);
      const job = {
        id: "j1",
        status: "queued" as const,
        syncedGroups: null,
        deletedGroups: null,
        errorMessage: null,
        createdAt: NOW,
        startedAt: null,
        finishedAt: null,
      };
      await s.scimMappings.createJob(job);
      await s.scimMappings.updateJob("j1", { status: "succeeded", syncedGroups: 3, deletedGroups: 0, startedAt: NOW + 1, finishedAt: NOW + 2 });
      expect(await s.scimMappings.getJob("j1")).toEqual({
        ...job,
        status: "succeeded",
        syncedGroups: 3,
        deletedGroups: 0,
        startedAt: NOW + 1,
        finishedAt: NOW + 2,
      });
    });
  });
}
