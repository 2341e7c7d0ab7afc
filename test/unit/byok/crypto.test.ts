import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { importAesKey, openSecret, openSecretSync, sealSecret } from "../../../src/crypto/aes-gcm";
import { loadMasterKey, MASTER_KEY_FILE, parseSecretKey } from "../../../src/crypto/master-key";
import { createSecretBox } from "../../../src/crypto/secret-box";
import { maskProviderKey } from "../../../src/modules/byok/label";
import { tempDir } from "../../support/gateway";

const KEY = new Uint8Array(32).map((_, i) => i);

describe("AES-256-GCM sealing", () => {
  test("seal then open returns the secret, through WebCrypto and through the sync path", async () => {
    const enc = await importAesKey(KEY, ["encrypt"]);
    const dec = await importAesKey(KEY, ["decrypt"]);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 200 }), async (secret) => {
        const sealed = await sealSecret(enc, secret);
        expect(await openSecret(dec, sealed)).toBe(secret);
        expect(openSecretSync(KEY, sealed)).toBe(secret);
      }),
      { numRuns: 200 },
    );
  });

  test("the layout is iv(12) | ciphertext | tag(16), and each seal uses a fresh IV", async () => {
    const enc = await importAesKey(KEY, ["encrypt"]);
    const a = Buffer.from(await sealSecret(enc, "sk-secret"), "base64");
    const b = Buffer.from(await sealSecret(enc, "sk-secret"), "base64");
    expect(a.length).toBe(12 + "sk-secret".length + 16);
    expect(a.subarray(0, 12).equals(b.subarray(0, 12))).toBe(false);
    expect(a.includes("sk-secret")).toBe(false);
  });

  test("a tampered byte or another key fails authentication on both paths", async () => {
    const enc = await importAesKey(KEY, ["encrypt"]);
    const sealed = Buffer.from(await sealSecret(enc, "sk-secret"), "base64");
    for (const index of [0, 13, sealed.length - 1]) {
      const bad = Buffer.from(sealed);
      bad[index]! ^= 1;
      expect(() => openSecretSync(KEY, bad.toString("base64"))).toThrow();
      await expect(openSecret(await importAesKey(KEY, ["decrypt"]), bad.toString("base64"))).rejects.toThrow();
    }
    const otherKey = new Uint8Array(32).fill(7);
    expect(() => openSecretSync(otherKey, sealed.toString("base64"))).toThrow();
    expect(() => openSecretSync(KEY, "c2hvcnQ=")).toThrow("too short");
  });

  test("importing a key of the wrong size is refused", () => {
    expect(() => importAesKey(new Uint8Array(16), ["encrypt"])).toThrow("32-byte");
  });
});

describe("secret box", () => {
  test("openSync serves from a bounded cache and still opens evicted secrets", async () => {
    const box = createSecretBox(KEY, 2);
    const sealed = await Promise.all(["a", "b", "c"].map((s) => box.seal(s)));
    expect(sealed.map((s) => box.openSync(s))).toEqual(["a", "b", "c"]);
    expect(sealed.map((s) => box.openSync(s))).toEqual(["a", "b", "c"]);
    expect(await box.open(sealed[0]!)).toBe("a");
  });

  test("openOnce opens what seal and sealSync made, and refuses a damaged or foreign one", async () => {
    const box = createSecretBox(KEY);
    const text = `{"generation":${JSON.stringify("é ✓ ".repeat(500))}}`;
    expect(box.openOnce(await box.seal(text))).toBe(text);
    expect(box.openOnce(box.sealSync(text))).toBe(text);
    const sealed = box.sealSync(text);
    const damaged = sealed.slice(0, 40) + (sealed[40] === "A" ? "B" : "A") + sealed.slice(41);
    expect(() => box.openOnce(damaged)).toThrow();
    expect(() => createSecretBox(new Uint8Array(32).fill(7)).openOnce(sealed)).toThrow();
  });
});

describe("master key", () => {
  const hex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

  test("GATEWAY_SECRET_KEY as hex or base64 gives the same 32 bytes", () => {
    const fromHex = parseSecretKey(hex);
    expect(Buffer.from(fromHex).toString("hex")).toBe(hex);
    expect(parseSecretKey(Buffer.from(hex, "hex").toString("base64"))).toEqual(fromHex);
    expect(() => parseSecretKey("abcd")).toThrow("32 bytes");
    expect(loadMasterKey({ secretKey: hex, databasePath: "/nonexistent/dir/db" })).toEqual(fromHex);
  });

  test("without one, a 0600 key file is generated beside the database and reused", () => {
    const dir = tempDir();
    const config = { databasePath: join(dir, "gateway.db") };
    const first = loadMasterKey(config);
    const path = join(dir, MASTER_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(loadMasterKey(config)).toEqual(first);
    expect(first.length).toBe(32);
  });

  test("an in-memory database gets an ephemeral key", () => {
    const a = loadMasterKey({ databasePath: ":memory:" });
    const b = loadMasterKey({ databasePath: ":memory:" });
    expect(a.length).toBe(32);
    expect(a).not.toEqual(b);
  });
});

describe("label", () => {
  test("shows at most a third of the key", () => {
    expect(maskProviderKey("sk-proj-abcdefghijklmnopqrstuvwxyz")).toBe("sk-p...wxyz");
    expect(maskProviderKey("0123456789abcdefghijklm")).toBe("01...lm");
    expect(maskProviderKey("0123456789ab")).toBe("01...ab");
    expect(maskProviderKey("short")).toBe("****");
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 100 }), (key) => {
        const shown = maskProviderKey(key).replace("...", "").replaceAll("*", "");
        expect(shown.length * 3).toBeLessThanOrEqual(Math.max(key.trim().length, 0));
      }),
    );
  });
});
