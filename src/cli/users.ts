import { parseArgs } from "node:util";
import { cliOrigin } from "../audit/origin";
import { createInvite, INVITE_LIFETIME_MS, setPassword } from "../auth-web/accounts";
import { bootstrap } from "../bootstrap";
import type { Config } from "../config";
import { ensureDataDir } from "../data-dir";
import { GatewayError } from "../errors";
import { silentLogger } from "../logger";
import { createUser, removeUser, updateUser } from "../modules/organization/service";
import { createSharedState } from "../shared-state";
import { withReadCache } from "../store/cached-store";
import { openStore } from "../store/open";
import type { Store } from "../store/store";
import { UsageError } from "./usage";

type Out = (line: string) => void;
/** reads what was piped in (the password); a test hands it over directly */
export type ReadStdin = () => Promise<string>;

const readProcessStdin: ReadStdin = () => Bun.stdin.text();

/**
 * The store the users commands write through. With Redis configured, the writes reach every
 * running instance's caches at once (a removed user's keys stop working there now, not in up
 * to a second), as the same writes through the API would.
 */
async function withUsersStore<T>(config: Config, fn: (store: Store) => Promise<T>): Promise<T> {
  if (config.database.dialect === "sqlite") ensureDataDir(config);
  const shared = await createSharedState({
    redisUrl: config.redis?.url,
    prefix: config.redis?.prefix ?? "",
    instanceId: `cli-${process.pid}`,
    logger: silentLogger,
  });
  const raw = await openStore(config.database);
  const store = withReadCache(raw, shared.bus);
  try {
    await bootstrap(store, { adminKey: config.adminKey, now: Date.now() });
    return await fn(store);
  } catch (err) {
    // the service's errors are about what was typed: exit 2 with their message
    if (err instanceof GatewayError) throw new UsageError(err.message);
    throw err;
  } finally {
    await raw.close();
    await shared.close();
  }
}

/** The first line of what was piped in: `printf '%s' "$PW" | gateway users passwd ID` and `echo "$PW" | ...` both work. */
async function passwordFromStdin(readStdin: ReadStdin): Promise<string> {
  const text = await readStdin();
  const line = text.split(/\r?\n/)[0] ?? "";
  if (line === "") throw new UsageError("expected the password on standard input (e.g. printf '%s' \"$PASSWORD\" | gateway users ...)");
  return line;
}

const deps = (store: Store) => ({ store, clock: Date.now });

async function add(config: Config, args: string[], out: Out, readStdin: ReadStdin): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { id: { type: "string" }, email: { type: "string" }, name: { type: "string" }, role: { type: "string" }, "password-stdin": { type: "boolean" } },
    strict: true,
  });
  if (!values.id) throw new UsageError("--id: required");
  const role = values.role ?? "member";
  if (role !== "admin" && role !== "member") throw new UsageError(`--role: expected admin or member (got "${values.role}")`);
  if (values["password-stdin"] && !values.email) throw new UsageError("--email: required with --password-stdin (people sign in with their email)");
  const password = values["password-stdin"] ? await passwordFromStdin(readStdin) : undefined;
  const user = await withUsersStore(config, async (store) => {
    if (await store.users.get(values.id!)) throw new UsageError(`--id: user '${values.id}' already exists`);
    const origin = cliOrigin("users add");
    const created = await createUser(deps(store), origin, { id: values.id, email: values.email ?? null, name: values.name ?? null, role });
    if (password !== undefined) await setPassword(deps(store), origin, created.id, password);
    return created;
  });
  out(JSON.stringify({ id: user.id, email: user.email, name: user.name, role: user.role }));
}

async function passwd(config: Config, args: string[], out: Out, readStdin: ReadStdin): Promise<void> {
  const { values, positionals } = parseArgs({ args, options: { email: { type: "string" } }, allowPositionals: true, strict: true });
  const [id] = positionals;
  if (!id || positionals.length > 1) throw new UsageError("users passwd: expected one user id");
  const password = await passwordFromStdin(readStdin);
  await withUsersStore(config, async (store) => {
    const user = await store.users.get(id);
    if (!user) throw new UsageError(`users passwd: no user '${id}'`);
    const origin = cliOrigin("users passwd");
    // the owner made at first start has no email: --email gives them one to sign in with
    if (values.email !== undefined) await updateUser(deps(store), origin, id, { email: values.email });
    await setPassword(deps(store), origin, id, password);
  });
  out(`password of '${id}' set; their sessions were signed out`);
}

async function invite(config: Config, args: string[], out: Out, warn: Out): Promise<void> {
  const [id, ...extra] = args;
  if (!id || extra.length > 0) throw new UsageError("users invite: expected one user id");
  const base = config.server.publicUrl ?? `http://localhost:${config.port}`;
  if (!config.server.publicUrl) warn(`warning: server.public_url (GATEWAY_PUBLIC_URL) is not set; the link uses ${base}`);
  const link = await withUsersStore(config, (store) => createInvite(deps(store), id, base));
  out(link.url);
  warn(`valid once, for ${INVITE_LIFETIME_MS / 3_600_000} hours (until ${new Date(link.expiresAt).toISOString()})`);
}

async function remove(config: Config, args: string[], out: Out): Promise<void> {
  const [id, ...extra] = args;
  if (!id || extra.length > 0) throw new UsageError("users remove: expected one user id");
  const removed = await withUsersStore(config, (store) => removeUser(deps(store), cliOrigin("users remove"), id));
  out(JSON.stringify({ id, ...removed }));
}

/** gateway users add | passwd | invite | remove */
export async function usersCommand(
  config: Config,
  args: string[],
  out: Out,
  readStdin: ReadStdin = readProcessStdin,
  warn: Out = (line) => process.stderr.write(`${line}\n`),
): Promise<void> {
  const [sub, ...rest] = args;
  switch (sub) {
    case "add":
      return add(config, rest, out, readStdin);
    case "passwd":
      return passwd(config, rest, out, readStdin);
    case "invite":
      return invite(config, rest, out, warn);
    case "remove":
      return remove(config, rest, out);
    default:
      throw new UsageError(`unknown users subcommand '${sub ?? ""}': expected add, passwd, invite or remove`);
  }
}
