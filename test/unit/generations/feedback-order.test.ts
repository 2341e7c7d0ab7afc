import { expect, test } from "bun:test";
import type { Principal } from "../../../src/http/principal";
import { submitFeedback } from "../../../src/modules/generations/service";
import { createSqliteStore } from "../../../src/store/sqlite";
import { generation, settled } from "../../store/contract/fixtures";

test("feedback given within one millisecond lists in the order it was given", async () => {
  const store = createSqliteStore(":memory:");
  await store.generations.commit([settled(generation("g1", "k", 1, { workspaceId: "ws" }), { nanos: null })]);
  const management = { isManagement: true, key: { hash: "admin" }, workspace: { id: "ws" } } as unknown as Principal;
  const deps = { store, clock: () => 1_800_000_000_000 };
  const categories = ["latency", "incorrect_response", "billing", "other", "latency", "billing", "incorrect_response", "other"] as const;
  for (const [i, category] of categories.entries()) await submitFeedback(deps, management, { generation_id: "g1", category, comment: `n${i}` });
  expect((await store.generations.feedback("g1")).map((f) => f.comment)).toEqual(categories.map((_, i) => `n${i}`));
  await store.close();
});
