import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM sealing of short secrets (BYOK provider keys). A sealed secret is
 * base64(iv | ciphertext | tag): 12-byte random IV, 16-byte tag, the layout WebCrypto
 * produces, so both directions below read each other's output.
 */
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function importAesKey(raw: Uint8Array, usages: Array<"encrypt" | "decrypt">): Promise<CryptoKey> {
  if (raw.length !== 32) throw new Error("AES-256 needs a 32-byte key");
  return crypto.subtle.importKey("raw", new Uint8Array(raw), { name: "AES-GCM" }, false, usages);
}

export async function sealSecret(key: CryptoKey, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(plaintext)));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv, 0);
  out.set(sealed, IV_BYTES);
  return Buffer.from(out).toString("base64");
}

export async function openSecret(key: CryptoKey, blob: string): Promise<string> {
  const bytes = Buffer.from(blob, "base64");
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error("sealed secret is too short");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: new Uint8Array(bytes.subarray(0, IV_BYTES)) },
    key,
    new Uint8Array(bytes.subarray(IV_BYTES)),
  );
  return new TextDecoder().decode(plain);
}

/**
 * Synchronous opening for the routing path, which plans candidates without awaiting.
 * Same format and the same authentication check as `openSecret`; the bytes themselves
 * (`sealBytesSync`) or their base64 text.
 */
export function openSecretSync(raw: Uint8Array, blob: string | Uint8Array): string {
  const bytes = typeof blob === "string" ? Buffer.from(blob, "base64") : Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error("sealed secret is too short");
  const decipher = createDecipheriv("aes-256-gcm", raw, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
}

/**
 * Synchronous sealing, the layout of `sealSecret` as bytes (iv | ciphertext | tag): for the
 * generation commit's outbox, sealed in the step that hands the records to the store (no await
 * between the two). One output buffer, no text form: on the serving thread, where a commit seals
 * about 12 KB, every copy counts.
 */
export function sealBytesSync(raw: Uint8Array, plaintext: string): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", raw, iv, { authTagLength: TAG_BYTES });
  const body = cipher.update(Buffer.from(plaintext, "utf8"));
  const tail = cipher.final();
  const out = Buffer.allocUnsafe(IV_BYTES + body.length + tail.length + TAG_BYTES);
  iv.copy(out, 0);
  body.copy(out, IV_BYTES);
  tail.copy(out, IV_BYTES + body.length);
  cipher.getAuthTag().copy(out, IV_BYTES + body.length + tail.length);
  return out;
}

/** `sealBytesSync` as base64 text, the form of `sealSecret`. */
export function sealSecretSync(raw: Uint8Array, plaintext: string): string {
  return Buffer.from(sealBytesSync(raw, plaintext)).toString("base64");
}
