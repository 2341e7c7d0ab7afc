import { parseArgs } from "node:util";
import { bootstrap } from "../bootstrap";
import { describeConfig, ensureDataDir, type Config } from "../config";
import { usdToNanos } from "../billing/money";
import { insertKey } from "../modules/keys/service";
import { createSqliteStore, openDatabase, runMigrations } from "../store/sqlite";
import type { UserRole } from "../store/store";
import { UsageError } from "./usage";
import pkg from "../../package.json" with { type: "json" };

type Out = (line: string) => void;

function openStore(config: Config) {
  ensureDataDir(config);
  const store = createSqliteStore(config.databasePath);
  bootstrap(store, { adminKey: config.adminKey, now: Date.now() });
  return store;
}

export function migrateCommand(config: Config, out: Out): void {
  ensureDataDir(config);
  const { sqlite } = openDatabase(config.databasePath);
  const applied = runMigrations(sqlite);
  sqlite.close();
  out(applied.length ? `applied ${applied.length} migration(s): ${applied.join(", ")}` : "database is up to date");
}

export function keysCommand(config: Config, args: string[], out: Out): void {
  const [sub, ...rest] = args;
  if (sub !== "create") throw new UsageError(`unknown keys subcommand '${sub ?? ""}': expected 'create'`);
  const { values } = parseArgs({
    args: rest,
    options: { management: { type: "boolean" }, name: { type: "string" }, workspace: { type: "string" }, limit: { type: "string" } },
    strict: true,
  });
  const limit = values.limit === undefined ? null : Number(values.limit);
  if (limit !== null && (!Number.isFinite(limit) || limit < 0)) throw new UsageError(`--limit: expected a non-negative USD amount (got "${values.limit}")`);
  const store = openStore(config);
  try {
    const ws = values.workspace ? store.workspaces.find(values.workspace) : store.workspaces.getDefault();
    if (!ws) throw new UsageError(`--workspace: no workspace '${values.workspace}'`);
    const { raw } = insertKey(store, Date.now(), {
      name: values.name ?? (values.management ? "Management key" : "API key"),
      isManagement: values.management ?? false,
      workspaceId: ws.id,
      creatorUserId: "owner",
      limitNanos: limit === null ? null : usdToNanos(limit),
    });
    out(raw);
  } finally {
    store.close();
  }
}

export function usersCommand(config: Config, args: string[], out: Out): void {
  const [sub, ...rest] = args;
  if (sub !== "add") throw new UsageError(`unknown users subcommand '${sub ?? ""}': expected 'add'`);
  const { values } = parseArgs({
    args: rest,
    options: { id: { type: "string" }, email: { type: "string" }, name: { type: "string" }, role: { type: "string" } },
    strict: true,
  });
  if (!values.id) throw new UsageError("--id: required");
  const role = (values.role ?? "member") as UserRole;
  if (role !== "admin" && role !== "member") throw new UsageError(`--role: expected admin or member (got "${values.role}")`);
  const store = openStore(config);
  try {
    if (store.users.get(values.id)) throw new UsageError(`--id: user '${values.id}' already exists`);
    const user = store.users.create({ id: values.id, email: values.email ?? null, name: values.name ?? null, role, createdAt: Date.now() });
    out(JSON.stringify({ id: user.id, email: user.email, name: user.name, role: user.role }));
  } finally {
    store.close();
  }
}

export function configCheckCommand(config: Config, out: Out): void {
  out(JSON.stringify(describeConfig(config), null, 2));
}

export function versionCommand(out: Out): void {
  out(`gateway ${pkg.version} (bun ${Bun.version})`);
}
