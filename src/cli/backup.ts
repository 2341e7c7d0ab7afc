import { chmodSync, copyFileSync, existsSync, constants as fsConstants, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Config } from "../config";
import { MASTER_KEY_FILE } from "../crypto/master-key";
import { backupSqliteFile } from "../store/sqlite/backup";
import { UsageError } from "./usage";

type Out = (line: string) => void;

/**
 * `gateway backup PATH`: a consistent copy of the SQLite database, safe while the gateway runs,
 * and beside it the master key that seals BYOK secrets: a database restored without its key
 * has credentials nobody can open.
 */
export function backupCommand(config: Config, args: string[], out: Out): void {
  if (args.length !== 1 || !args[0]) throw new UsageError("backup: expected one destination file: gateway backup PATH");
  if (config.database.dialect === "postgres")
    throw new UsageError("backup: DATABASE_URL is PostgreSQL; back it up with pg_dump, and keep GATEWAY_SECRET_KEY with the dump");
  const source = config.database.path;
  if (source === ":memory:") throw new UsageError("backup: DATABASE_URL is an in-memory database; there is nothing on disk to copy");
  if (!existsSync(source)) throw new UsageError(`backup: no database at ${source} (DATABASE_URL)`);
  const destination = resolve(args[0]);
  const keyCopy = `${destination}.${MASTER_KEY_FILE}`;
  for (const path of [destination, keyCopy]) if (existsSync(path)) throw new UsageError(`backup: ${path} already exists; a backup never overwrites a file`);

  mkdirSync(dirname(destination), { recursive: true });
  backupSqliteFile(source, destination);
  // key hashes and sealed secrets: readable by the operator only, like the master key
  chmodSync(destination, 0o600);
  out(`database: ${destination}`);

  if (config.secretKey) {
    out("master key: GATEWAY_SECRET_KEY seals BYOK secrets; it is not in the backup: keep its value with it");
    return;
  }
  const masterKey = join(config.dataDir, MASTER_KEY_FILE);
  if (!existsSync(masterKey)) {
    out(`master key: none at ${masterKey}; no BYOK secret has been sealed by this data directory`);
    return;
  }
  copyFileSync(masterKey, keyCopy, fsConstants.COPYFILE_EXCL);
  chmodSync(keyCopy, 0o600);
  out(`master key: ${keyCopy} (restore it as ${MASTER_KEY_FILE} beside the database, or BYOK secrets cannot be opened)`);
}
