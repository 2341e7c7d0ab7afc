import { Hash } from "@smithy/core/serde";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsKeys } from "../../catalog/bedrock-credential";

/** The SigV4 service name of Bedrock Runtime (its endpoints' signing name). */
export const BEDROCK_SIGNING_SERVICE = "bedrock";

const sha256 = Hash.bind(null, "sha256");

/**
 * The headers that sign one call with AWS Signature Version 4
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv.html), computed by Smithy's
 * signer, the one the AWS SDKs use, over exactly the bytes that will be sent. The headers given
 * are signed too (content type, accept, the operator's fixed headers), so none can be swapped on
 * the way; `host` is signed but not returned, since fetch sets it from the URL.
 */
export async function signedHeaders(
  keys: AwsKeys,
  region: string,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<Record<string, string>> {
  const target = new URL(url);
  const signer = new SignatureV4({
    credentials: { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey, sessionToken: keys.sessionToken },
    region,
    service: BEDROCK_SIGNING_SERVICE,
    sha256,
    // the payload hash goes in x-amz-content-sha256 too, as the SDKs send it for S3; Bedrock needs only the signature
    applyChecksum: false,
  });
  const signed = await signer.sign({
    method: "POST",
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port === "" ? undefined : Number(target.port),
    path: target.pathname,
    query: Object.fromEntries(target.searchParams),
    headers: { ...headers, host: target.host },
    body,
  });
  const { host: _host, ...out } = signed.headers;
  return out;
}
