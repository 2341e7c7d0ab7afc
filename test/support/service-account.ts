// A Google service account made for one test run: an RSA key pair generated on the spot (no key
// is ever committed), the key file's JSON as Google issues it, and the public key a mock token
// endpoint checks grants with.
import { exportPKCS8, generateKeyPair } from "jose";

export type TestServiceAccount = {
  /** the key file's JSON text, as a BYOK `key` or the content of `credentials_file` */
  json: string;
  clientEmail: string;
  keyId: string;
  publicKey: CryptoKey;
};

let made = 0;

export async function makeServiceAccount(opts: { tokenUri: string; projectId?: string; name?: string }): Promise<TestServiceAccount> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true, modulusLength: 2048 });
  const name = opts.name ?? `gateway-test-${++made}`;
  const project = opts.projectId ?? "test-project-123";
  const clientEmail = `${name}@${project.replace(/^.*:/, "")}.iam.gserviceaccount.com`;
  const keyId = `key-${crypto.randomUUID().replaceAll("-", "")}`;
  const json = JSON.stringify(
    {
      type: "service_account",
      project_id: project,
      private_key_id: keyId,
      private_key: await exportPKCS8(privateKey),
      client_email: clientEmail,
      client_id: "100000000000000000000",
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      token_uri: opts.tokenUri,
      auth_provider_x509_cert_url: "https://www.googleapis.com/oauth2/v1/certs",
      universe_domain: "googleapis.com",
    },
    null,
    2,
  );
  return { json, clientEmail, keyId, publicKey };
}
