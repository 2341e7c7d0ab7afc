import { checkOutboundUrl } from "../../outbound/check-url";
import { OUTBOUND_LIMITS } from "../../outbound/client";
import { systemLookup } from "../../outbound/host-lookup";
import type { Destination, DestinationSender, ObservedGeneration, SenderDeps, SendOutcome } from "../contract";
import { configText, optionalConfigText } from "./destination-config";
import { classifyS3Error, s3ProbeMessage } from "./s3-errors";
import { connectionTestKey, traceObjectKey } from "./s3-object-key";
import { traceDocument } from "./trace-document";
import { planTrace, traceHexId } from "./trace-plan";

/**
 * S3 and S3-compatible stores: one JSON object per trace, as OpenRouter's S3 destination writes
 * them, PutObject through Bun.S3Client (it signs SigV4, with the session token when there is
 * one). Bun's client does
 * its own HTTP, so the guarded outbound client is not in the path; a custom `endpoint` is
 * checked against the same URL rules before each write instead (name resolution is not
 * pinned here, unlike the outbound client).
 */
export const s3Sender: DestinationSender = {
  type: "s3",
  configKeys: [
    { key: "bucketName", required: true },
    { key: "accessKeyId", required: true },
    { key: "secretAccessKey", required: true, secret: true },
    { key: "region", required: false },
    { key: "endpoint", required: false, url: true },
    { key: "sessionToken", required: false, secret: true },
    { key: "prefix", required: false, default: "openrouter-traces" },
    { key: "pathTemplate", required: false, default: "{prefix}/{date}" },
  ],
  // PutObject is the one permission OpenRouter asks for: HeadBucket or List may be denied
  async probe(destination, deps) {
    const refused = await endpointRefusal(destination, deps);
    if (refused) return { ok: false, message: refused.reason };
    const body = JSON.stringify({ connectionTest: true, at: new Date(deps.clock()).toISOString() });
    try {
      await withinTimeout(clientOf(destination).write(connectionTestKey(configText(destination, "prefix")), body, { type: "application/json" }));
      return { ok: true };
    } catch (error) {
      return { ok: false, message: s3ProbeMessage(error) };
    }
  },
  async send(generation, destination, deps) {
    const refused = await endpointRefusal(destination, deps);
    if (refused) return refused;
    try {
      await withinTimeout(
        clientOf(destination).write(objectKeyOf(generation, destination), JSON.stringify(traceDocument(generation, destination)), { type: "application/json" }),
      );
      return { kind: "delivered" };
    } catch (error) {
      return classifyS3Error(error);
    }
  },
};

export function objectKeyOf(generation: ObservedGeneration, destination: Destination): string {
  const vars = { prefix: configText(destination, "prefix"), startedAt: generation.startedAt, apiKeyName: generation.keyName };
  return traceObjectKey(configText(destination, "pathTemplate") || "{prefix}/{date}", vars, traceHexId(planTrace(generation)));
}

function clientOf(destination: Destination): Bun.S3Client {
  return new Bun.S3Client({
    bucket: configText(destination, "bucketName"),
    accessKeyId: configText(destination, "accessKeyId"),
    secretAccessKey: configText(destination, "secretAccessKey"),
    ...optional("region", optionalConfigText(destination, "region")),
    ...optional("endpoint", optionalConfigText(destination, "endpoint")),
    ...optional("sessionToken", optionalConfigText(destination, "sessionToken")),
  });
}

const optional = (key: string, value: string | null) => (value === null ? {} : { [key]: value });

/** A custom endpoint that the URL rules refuse now is a failure; one whose host does not resolve now, a retry. */
async function endpointRefusal(destination: Destination, deps: SenderDeps): Promise<Exclude<SendOutcome, { kind: "delivered" }> | null> {
  const endpoint = optionalConfigText(destination, "endpoint");
  if (endpoint === null) return null;
  const checked = await checkOutboundUrl(endpoint, {
    allowPrivate: deps.allowPrivateUrls,
    lookup: systemLookup,
    lookupTimeoutMs: OUTBOUND_LIMITS.lookupTimeoutMs,
  });
  if (checked.ok) return null;
  return checked.kind === "refused" ? { kind: "failed", reason: `endpoint ${checked.reason}` } : { kind: "retry", reason: `endpoint ${checked.reason}` };
}

class S3Timeout extends Error {
  override readonly name = "S3Timeout";
  readonly code = "ConnectionTimeout";
}

/** Bun's S3 writes have no deadline of their own: the same 30 s as every outbound request. */
async function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new S3Timeout("the S3 write timed out")), OUTBOUND_LIMITS.totalTimeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
