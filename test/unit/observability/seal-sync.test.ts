import { expect, test } from "bun:test";
import fc from "fast-check";
import { importAesKey, openSecret, sealSecretSync } from "../../../src/crypto/aes-gcm";
import { createSecretBox } from "../../../src/crypto/secret-box";

const KEY = new Uint8Array(32).map((_, i) => 255 - i);

test("sealSync writes the layout WebCrypto opens, with a fresh IV each time", async () => {
  const dec = await importAesKey(KEY, ["decrypt"]);
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 300 }), async (text) => {
      expect(await openSecret(dec, sealSecretSync(KEY, text))).toBe(text);
    }),
    { numRuns: 200 },
  );
  const box = createSecretBox(KEY);
  const a = box.sealSync("prompt");
  expect(a).not.toBe(box.sealSync("prompt"));
  expect(await box.open(a)).toBe("prompt");
  expect(Buffer.from(a, "base64").includes("prompt")).toBe(false);
});

test("sealBytesSync is the same layout as bytes: opened from them or from their base64, by WebCrypto too; a changed byte does not open", async () => {
  const dec = await importAesKey(KEY, ["decrypt"]);
  const box = createSecretBox(KEY);
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 300 }), async (text) => {
      const bytes = box.sealBytesSync(text);
      expect(bytes.length).toBe(12 + Buffer.byteLength(text) + 16);
      expect(box.openOnce(bytes)).toBe(text);
      const text64 = Buffer.from(bytes).toString("base64");
      expect(box.openOnce(text64)).toBe(text);
      expect(await openSecret(dec, text64)).toBe(text);
    }),
    { numRuns: 200 },
  );
  const sealed = box.sealBytesSync("a prompt to keep");
  expect(Buffer.from(sealed).includes("prompt")).toBe(false);
  expect(Buffer.from(sealed).equals(Buffer.from(box.sealBytesSync("a prompt to keep")))).toBe(false);
  const changed = Uint8Array.from(sealed);
  changed[20]! ^= 1;
  expect(() => box.openOnce(changed)).toThrow();
  // a view into a larger buffer opens as itself
  const within = new Uint8Array(sealed.length + 8);
  within.set(sealed, 4);
  expect(box.openOnce(within.subarray(4, 4 + sealed.length))).toBe("a prompt to keep");
});
