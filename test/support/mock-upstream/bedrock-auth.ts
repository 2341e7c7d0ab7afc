// Bedrock's front door: every call is checked as AWS checks it. A SigV4 signature is
// recomputed with @smithy/signature-v4 (the signer the AWS SDKs use) from the request exactly as
// it arrived (method, raw path, the headers it says it signed, the body bytes) and compared; a
// Bedrock API key must be one the mock knows. Anything else is a 403 in Bedrock's shape.
import { createHash } from "node:crypto";
import { Hash } from "@smithy/core/serde";
import { SignatureV4 } from "@smithy/signature-v4";

export type MockAwsKey = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

/** The credentials the mock accepts, in the one region it serves. */
export const MOCK_AWS = {
  region: "us-east-1",
  keys: {
    plain: { accessKeyId: "AKIAMOCKBEDROCK00001", secretAccessKey: "mock/Secret+Key/0000000000000000000000" },
    session: {
      accessKeyId: "ASIAMOCKBEDROCK00002",
      secretAccessKey: "mock/Session+Secret/11111111111111111111",
      sessionToken: "IQoJb3JpZ2luX2VjEMOCKSESSIONTOKEN//////////wEaCXVzLWVhc3QtMSJHMEUCIQ",
    },
  } satisfies Record<string, MockAwsKey>,
  apiKey: "ABSKQmVkcm9ja0FQSUtleS1tb2NrLWtleS0wMDAwMDAwMDAwMDAwMDAwMDA=",
} as const;

const KEYS = new Map<string, MockAwsKey>(Object.values(MOCK_AWS.keys).map((k) => [k.accessKeyId, k]));
/** AWS refuses a signature dated more than 5 minutes from its clock. */
const MAX_SKEW_MS = 5 * 60_000;
const sha256 = Hash.bind(null, "sha256");

export const SIGNATURE_MISMATCH =
  "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";
const UNKNOWN_TOKEN = "The security token included in the request is invalid.";

function refuse(type: string, message: string): Response {
  return Response.json(
    { message },
    {
      status: 403,
      headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/`, "x-amzn-requestid": crypto.randomUUID() },
    },
  );
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

const amzDate = (value: string): Date | undefined => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined;
};

/** undefined: the call may go on; else the 403 Bedrock would answer. */
export async function checkBedrockAuth(request: Request, rawPath: string, body: Uint8Array): Promise<Response | undefined> {
  const authorization = request.headers.get("authorization") ?? "";
  if (authorization.startsWith("Bearer ")) return authorization.slice(7) === MOCK_AWS.apiKey ? undefined : refuse("UnrecognizedClientException", UNKNOWN_TOKEN);
  const m = AUTHORIZATION.exec(authorization);
  if (!m) return refuse("MissingAuthenticationTokenException", "Missing Authentication Token");
  const [, accessKeyId, scopeDate, region, service, signedList, signature] = m as unknown as string[];
  const key = KEYS.get(accessKeyId!);
  if (!key) return refuse("UnrecognizedClientException", UNKNOWN_TOKEN);
  const sentToken = request.headers.get("x-amz-security-token") ?? undefined;
  if (sentToken !== key.sessionToken) return refuse("UnrecognizedClientException", UNKNOWN_TOKEN);
  if (service !== "bedrock") return refuse("InvalidSignatureException", `Credential should be scoped to correct service: 'bedrock'.`);
  if (region !== MOCK_AWS.region) return refuse("InvalidSignatureException", `Credential should be scoped to a valid region.`);
  const date = amzDate(request.headers.get("x-amz-date") ?? "");
  if (!date || scopeDate !== request.headers.get("x-amz-date")!.slice(0, 8)) return refuse("InvalidSignatureException", SIGNATURE_MISMATCH);
  if (Math.abs(Date.now() - date.getTime()) > MAX_SKEW_MS) return refuse("InvalidSignatureException", "Signature expired");
  const signed = signedList!.split(";");
  const contentHash = request.headers.get("x-amz-content-sha256");
  if (signed.includes("x-amz-content-sha256") && contentHash !== "UNSIGNED-PAYLOAD" && contentHash !== createHash("sha256").update(body).digest("hex")) {
    return refuse("InvalidSignatureException", SIGNATURE_MISMATCH);
  }
  const url = new URL(request.url);
  const headers = Object.fromEntries(signed.map((name) => [name, request.headers.get(name) ?? ""]));
  const signer = new SignatureV4({ credentials: key, region: region!, service: service!, sha256, applyChecksum: false });
  const recomputed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port) || undefined,
      path: rawPath,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
    },
    { signingDate: date },
  );
  if (recomputed.headers.authorization?.endsWith(`Signature=${signature}`)) return undefined;
  // as AWS does, the canonical request follows the message: it names the signed headers and their values
  const canonical = signed.map((name) => `${name}:${headers[name]}`).join("\n");
  return refuse(
    "InvalidSignatureException",
    `${SIGNATURE_MISMATCH}\n\nThe Canonical String for this request should have been\n'${request.method}\n${rawPath}\n\n${canonical}'\n`,
  );
}
