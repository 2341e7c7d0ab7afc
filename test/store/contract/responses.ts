/** Contract: Responses state (stored responses and their output items). */
import { describe, expect, test } from "bun:test";
import type { Store, StoredResponse } from "../../../src/store/store";

const MINUTE = 60_000;

const reasoning = { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Plan \u0000 é 😀" }], encrypted_content: "gwrs1.abc" };
const message = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Hi", annotations: [] }] };

const response = (id: string, workspaceId: string, createdAt: number, extra: Partial<StoredResponse> = {}): StoredResponse => ({
  id,
  workspaceId,
  input: [{ role: "user", content: "hello" }],
  output: [reasoning, message],
  createdAt,
  expiresAt: createdAt + 60 * MINUTE,
  referencedItemIds: [],
  ...extra,
});

export function responsesContract(store: () => Store): void {
  describe("responses state", () => {
    test("items and the conversation read back exactly, within the workspace and before expiry only", async () => {
      const s = store();
      await s.responses.save(response("r1", "w1", 1000));
      expect(await s.responses.items("w1", ["msg_1", "rs_1", "nope"], 1000)).toEqual(
        new Map<string, unknown>([
          ["rs_1", reasoning],
          ["msg_1", message],
        ]),
      );
      expect(await s.responses.conversation("w1", "r1", 1000)).toEqual({ input: [{ role: "user", content: "hello" }], output: [reasoning, message] });
      // another workspace sees nothing
      expect(await s.responses.items("w2", ["msg_1"], 1000)).toEqual(new Map());
      expect(await s.responses.conversation("w2", "r1", 1000)).toBeUndefined();
      // expired at expiresAt, even before any purge
      const expiry = 1000 + 60 * MINUTE;
      expect((await s.responses.items("w1", ["msg_1"], expiry - 1)).size).toBe(1);
      expect(await s.responses.items("w1", ["msg_1"], expiry)).toEqual(new Map());
      expect(await s.responses.conversation("w1", "r1", expiry)).toBeUndefined();
      expect(await s.responses.items("w1", [], 1000)).toEqual(new Map());
    });

    test("saving a response id twice keeps the first", async () => {
      const s = store();
      await s.responses.save(response("r1", "w1", 1000));
      await s.responses.save(response("r1", "w1", 2000, { input: ["other"], output: [{ id: "msg_2" }] }));
      expect(await s.responses.conversation("w1", "r1", 2000)).toEqual({ input: [{ role: "user", content: "hello" }], output: [reasoning, message] });
      expect(await s.responses.items("w1", ["msg_2"], 2000)).toEqual(new Map());
    });

    test("an id stored by two responses answers the later one's item", async () => {
      const s = store();
      await s.responses.save(response("r1", "w1", 1000));
      const newer = { ...message, content: [{ type: "output_text", text: "Newer", annotations: [] }] };
      await s.responses.save(response("r2", "w1", 2000, { output: [newer] }));
      expect((await s.responses.items("w1", ["msg_1"], 2000)).get("msg_1")).toEqual(newer);
    });

    test("items a response referred to live as long as it does", async () => {
      const s = store();
      await s.responses.save(response("r1", "w1", 0));
      await s.responses.save(response("r2", "w1", 50 * MINUTE, { output: [{ type: "message", id: "msg_2" }], referencedItemIds: ["msg_1"] }));
      // r1 itself has expired, but msg_1 was referred to by r2 and lives until r2 expires
      expect(await s.responses.conversation("w1", "r1", 70 * MINUTE)).toBeUndefined();
      expect([...(await s.responses.items("w1", ["msg_1", "rs_1", "msg_2"], 70 * MINUTE)).keys()].sort()).toEqual(["msg_1", "msg_2"]);
      // a reference never shortens a life; another workspace's items are not touched
      await s.responses.save(response("r3", "w2", 0, { output: [{ id: "msg_3" }] }));
      await s.responses.save(response("r4", "w1", 1, { output: [], expiresAt: 2, referencedItemIds: ["msg_2", "msg_3"] }));
      expect((await s.responses.items("w1", ["msg_2"], 100 * MINUTE)).size).toBe(1);
      expect((await s.responses.items("w2", ["msg_3"], 59 * MINUTE)).size).toBe(1);
    });

    test("purgeExpired deletes expired responses and items only", async () => {
      const s = store();
      await s.responses.save(response("r1", "w1", 0));
      await s.responses.save(response("r2", "w1", 30 * MINUTE, { output: [{ id: "msg_2" }] }));
      expect(await s.responses.purgeExpired(60 * MINUTE)).toBe(1);
      expect(await s.responses.purgeExpired(60 * MINUTE)).toBe(0);
      // gone for good: not even a clock turned back finds them
      expect(await s.responses.conversation("w1", "r1", 0)).toBeUndefined();
      expect(await s.responses.items("w1", ["msg_1", "rs_1"], 0)).toEqual(new Map());
      expect(await s.responses.items("w1", ["msg_2"], 60 * MINUTE)).toEqual(new Map([["msg_2", { id: "msg_2" }]]));
    });

    test("saving inside a transaction commits with it, and rolls back with it", async () => {
      const s = store();
      await expect(
        s.transaction(async (tx) => {
          await tx.responses.save(response("r1", "w1", 1000));
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await s.responses.conversation("w1", "r1", 1000)).toBeUndefined();
      await s.transaction((tx) => tx.responses.save(response("r1", "w1", 1000)));
      expect(await s.responses.conversation("w1", "r1", 1000)).toEqual({ input: [{ role: "user", content: "hello" }], output: [reasoning, message] });
    });
  });
}
