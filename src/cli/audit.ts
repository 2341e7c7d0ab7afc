import { parseArgs } from "node:util";
import { AUDIT_ACTIONS, type AuditAction } from "../audit/actions";
import type { Config } from "../config";
import { ensureDataDir } from "../data-dir";
import { GatewayError } from "../errors";
import { listAuditEvents, verifyAuditLog } from "../modules/audit/service";
import { openStore } from "../store/open";
import type { Store } from "../store/store";
import { UsageError } from "./usage";

type Out = (line: string) => void;

const isAction = (value: string): value is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(value);

function listQuery(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      limit: { type: "string" },
      cursor: { type: "string" },
      actor: { type: "string" },
      action: { type: "string" },
      target: { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
    },
    strict: true,
  });
  if (values.limit !== undefined && (!/^\d+$/.test(values.limit) || Number(values.limit) < 1 || Number(values.limit) > 500))
    throw new UsageError(`--limit: expected an integer from 1 to 500 (got "${values.limit}")`);
  if (values.action !== undefined && !isAction(values.action))
    throw new UsageError(`--action: expected one of ${AUDIT_ACTIONS.join(", ")} (got "${values.action}")`);
  if (values.cursor !== undefined && !/^[1-9]\d{0,15}$/.test(values.cursor))
    throw new UsageError(`--cursor: expected the next_cursor of a page (got "${values.cursor}")`);
  return {
    limit: values.limit === undefined ? undefined : Number(values.limit),
    cursor: values.cursor,
    actor_id: values.actor,
    action: values.action as AuditAction | undefined,
    target_id: values.target,
    since: values.since,
    until: values.until,
  };
}

async function withStore<T>(config: Config, fn: (store: Store) => Promise<T>): Promise<T> {
  if (config.database.dialect === "sqlite") ensureDataDir(config);
  const store = await openStore(config.database);
  try {
    return await fn(store);
  } catch (err) {
    if (err instanceof GatewayError && err.status < 500) throw new UsageError(err.message.replace("query parameter", "option"));
    throw err;
  } finally {
    await store.close();
  }
}

/**
 * `gateway audit verify`: walks the hash chain; prints OK and returns 0, or names the first broken
 * event and returns 1. `gateway audit list [...]`: events newest first, one JSON object per line,
 * and the next page's cursor on stderr.
 */
export async function auditCommand(config: Config, args: string[], out: Out, warn: Out): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "verify") {
    if (rest.length > 0) throw new UsageError("audit verify: takes no arguments");
    const verdict = await withStore(config, verifyAuditLog);
    if (verdict.ok) {
      out(`OK: ${verdict.events} event(s) verified${verdict.events ? ` (${verdict.first_id} to ${verdict.last_id})` : ""}`);
      return 0;
    }
    out(`BROKEN: event ${verdict.broken_id}: ${verdict.reason} (${verdict.events} event(s) before it verified)`);
    return 1;
  }
  if (sub === "list") {
    const query = listQuery(rest);
    const page = await withStore(config, (store) => listAuditEvents(store, query));
    for (const event of page.data) out(JSON.stringify(event));
    if (page.next_cursor) warn(`more: --cursor ${page.next_cursor}`);
    return 0;
  }
  throw new UsageError(`unknown audit subcommand '${sub ?? ""}': expected 'verify' or 'list'`);
}
