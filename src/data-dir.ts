import { accessSync, existsSync, constants as fsConstants, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ConfigError } from "./config-error";

/** The directory of the database file; for an in-memory or PostgreSQL database, ./data. */
export function dataDirOf(databasePath: string): string {
  return databasePath === ":memory:" ? resolve("data") : dirname(databasePath);
}

/**
 * Creates the directory that holds the database file and checks that this process may write
 * there. A deployment that got the owner or mode wrong hears which setting to fix, not an
 * errno from deep inside SQLite.
 */
export function ensureDataDir(config: { databasePath: string }): string {
  const dir = dataDirOf(config.databasePath);
  const writable = (path: string) => {
    try {
      accessSync(path, fsConstants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "EACCES" || code === "EPERM" ? `permission denied for uid ${process.getuid?.() ?? "?"}` : (code ?? (err as Error).message);
    throw new ConfigError("DATABASE_URL", `a path whose directory ${dir} can be created (${why})`);
  }
  if (!writable(dir))
    throw new ConfigError("DATABASE_URL", `a path whose directory ${dir} this user (uid ${process.getuid?.() ?? "?"}) may write: permission denied`);
  if (config.databasePath !== ":memory:" && existsSync(config.databasePath) && !writable(config.databasePath))
    throw new ConfigError("DATABASE_URL", `a SQLite file this user (uid ${process.getuid?.() ?? "?"}) may write: permission denied on ${config.databasePath}`);
  return dir;
}
