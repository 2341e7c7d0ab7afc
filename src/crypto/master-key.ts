import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config";
import { ensureDataDir } from "../data-dir";

export const MASTER_KEY_FILE = "master.key";

/** GATEWAY_SECRET_KEY as config validated it: 64 hex characters, or base64 of 32 bytes. */
export function parseSecretKey(text: string): Uint8Array {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (bytes.length !== 32) throw new Error("master key must be 32 bytes (64 hex characters or base64)");
  return new Uint8Array(bytes);
}

/**
 * The 32-byte key that seals BYOK secrets: GATEWAY_SECRET_KEY when set, else a key file
 * (mode 0600) beside the database, generated on first use. An in-memory database gets an
 * ephemeral key, since nothing it seals outlives the process either.
 */
export function loadMasterKey(config: Pick<Config, "secretKey" | "databasePath">): Uint8Array {
  if (config.secretKey) return parseSecretKey(config.secretKey);
  if (config.databasePath === ":memory:") return crypto.getRandomValues(new Uint8Array(32));
  const path = join(ensureDataDir(config as Config), MASTER_KEY_FILE);
  if (!existsSync(path)) {
    try {
      // "wx": of two processes starting together, one writes and the other reads its key
      writeFileSync(path, `${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return parseSecretKey(readFileSync(path, "utf8"));
}
