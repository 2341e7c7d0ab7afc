// Child process of store.test.ts: appends versions to one preset through its own connection.
import { createSqliteStore } from "../../../src/store/sqlite";

const [path, workspaceId, slug, count, tag] = process.argv.slice(2) as [string, string, string, string, string];
const store = createSqliteStore(path, { migrate: false });
await Bun.sleep(Number(process.env.START_AT ?? 0) - Date.now());
for (let i = 0; i < Number(count); i++) {
  await store.presets.appendVersion({
    workspaceId,
    slug,
    config: { writer: tag, i },
    systemPrompt: null,
    format: "openai-chat",
    creatorUserId: null,
    creatorId: tag,
    now: Date.now(),
  });
}
await store.close();
