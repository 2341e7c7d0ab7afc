import type { Config } from "../config";
import { importAesKey, openSecret, openSecretSync, sealBytesSync, sealSecret, sealSecretSync } from "./aes-gcm";
import { loadMasterKey } from "./master-key";

/** Seals and opens secrets under the master key: BYOK keys, webhook secrets, kept prompts and forwarded generations. */
export type SecretBox = {
  seal(plaintext: string): Promise<string>;
  /** the same sealing without a wait */
  sealSync(plaintext: string): string;
  /** `sealSync` as bytes, not base64 text: for the generation commit's outbox (a BLOB on SQLite) */
  sealBytesSync(plaintext: string): Uint8Array;
  open(sealed: string): Promise<string>;
  /** for the routing path; recently opened secrets are served from a bounded cache */
  openSync(sealed: string): string;
  /**
   * Synchronous and not cached: for what is read once (a forwarded generation), which in the
   * cache would only push the routing path's secrets out. Same format as `open`; where `open`
   * goes through WebCrypto (a thread hop and 32 µs of CPU for 2 KB), this is 7 µs.
   */
  openOnce(sealed: string | Uint8Array): string;
};

export function createSecretBox(masterKey: Uint8Array, cacheSize = 1024): SecretBox {
  let encryptKey: Promise<CryptoKey> | undefined;
  let decryptKey: Promise<CryptoKey> | undefined;
  // keyed by the sealed text: a rotated key is a new entry, the old one ages out
  const cache = new Map<string, string>();
  return {
    async seal(plaintext) {
      encryptKey ??= importAesKey(masterKey, ["encrypt"]);
      return sealSecret(await encryptKey, plaintext);
    },
    sealSync: (plaintext) => sealSecretSync(masterKey, plaintext),
    sealBytesSync: (plaintext) => sealBytesSync(masterKey, plaintext),
    async open(sealed) {
      decryptKey ??= importAesKey(masterKey, ["decrypt"]);
      return openSecret(await decryptKey, sealed);
    },
    openSync(sealed) {
      const hit = cache.get(sealed);
      if (hit !== undefined) {
        cache.delete(sealed);
        cache.set(sealed, hit);
        return hit;
      }
      const plain = openSecretSync(masterKey, sealed);
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
      cache.set(sealed, plain);
      return plain;
    },
    openOnce: (sealed) => openSecretSync(masterKey, sealed),
  };
}

/** The context's secret box, built from its config on first use when the context was made without one. */
export function secretBoxOf(ctx: { config: Pick<Config, "secretKey" | "databasePath">; secrets?: SecretBox }): SecretBox {
  ctx.secrets ??= createSecretBox(loadMasterKey(ctx.config));
  return ctx.secrets;
}
