import { parseArgs } from "node:util";
import pkg from "../../package.json" with { type: "json" };
import { cliOrigin } from "../audit/origin";
import { usdToNanos } from "../billing/money";
import { bootstrap } from "../bootstrap";
import { type Config, configWarnings } from "../config";
import { describeConfig } from "../config-describe";
import { ensureDataDir } from "../data-dir";
import { insertKey, recordKeyChange } from "../modules/keys/service";
import { raiseOpenFileLimit } from "../process-limits/open-files";
import { migrateDatabase, openStore as openConfiguredStore } from "../store/open";
import { UsageError } from "./usage";

type Out = (line: string) => void;

async function openStore(config: Config) {
  if (config.database.dialect === "sqlite") ensureDataDir(config);
  const store = await openConfiguredStore(config.database);
  await bootstrap(store, { adminKey: config.adminKey, now: Date.now() });
  return store;
}

export async function migrateCommand(config: Config, out: Out): Promise<void> {
  if (config.database.dialect === "sqlite") ensureDataDir(config);
  const applied = await migrateDatabase(config.database);
  out(applied.length ? `applied ${applied.length} migration(s): ${applied.join(", ")}` : "database is up to date");
}

export async function keysCommand(config: Config, args: string[], out: Out): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== "create") throw new UsageError(`unknown keys subcommand '${sub ?? ""}': expected 'create'`);
  const { values } = parseArgs({
    args: rest,
    options: { management: { type: "boolean" }, name: { type: "string" }, workspace: { type: "string" }, limit: { type: "string" } },
    strict: true,
  });
  const limit = values.limit === undefined ? null : Number(values.limit);
  if (limit !== null && (!Number.isFinite(limit) || limit < 0)) throw new UsageError(`--limit: expected a non-negative USD amount (got "${values.limit}")`);
  const store = await openStore(config);
  try {
    const ws = values.workspace ? await store.workspaces.find(values.workspace) : await store.workspaces.getDefault();
    if (!ws) throw new UsageError(`--workspace: no workspace '${values.workspace}'`);
    const now = Date.now();
    const raw = await store.transaction(async (tx) => {
      const made = await insertKey(tx, now, {
        name: values.name ?? (values.management ? "Management key" : "API key"),
        isManagement: values.management ?? false,
        workspaceId: ws.id,
        creatorUserId: "owner",
        limitNanos: limit === null ? null : usdToNanos(limit),
      });
      await recordKeyChange(tx, now, cliOrigin("keys create"), "key.create", null, made.record);
      return made.raw;
    });
    out(raw);
  } finally {
    await store.close();
  }
}

export function configCheckCommand(config: Config, out: Out, warn: Out = (line) => process.stderr.write(`${line}\n`)): void {
  // the open-file limit as `serve` raises it: it caps concurrent streams (two sockets each)
  out(JSON.stringify({ ...describeConfig(config), open_files: raiseOpenFileLimit() }, null, 2));
  for (const warning of configWarnings(config)) warn(`warning: ${warning}`);
}

export function versionCommand(out: Out): void {
  out(`gateway ${pkg.version} (bun ${Bun.version})`);
}
