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
