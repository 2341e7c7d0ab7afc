import { type BedrockCredential, parseBedrockCredential } from "../../catalog/bedrock-credential";
import type { ProviderEntry } from "../../catalog/types";
import { bedrockConverseUpstream } from "../../formats/bedrock-converse";
import type { SseEvent } from "../../ir/codec";
import type { UpstreamApi } from "../upstream-api";

/**
 * Smithy's signer and event-stream codec, loaded on the first Bedrock call (or at start when a
 * Bedrock provider has the gateway's own credential, warmUpstreamLibraries): they add about 10 MB
 * to the resident memory of a gateway that never calls Bedrock.
 */
let smithy: Promise<[typeof import("./bedrock-sigv4"), typeof import("./bedrock-event-stream")]> | undefined;
export const loadBedrockLibraries = () => (smithy ??= Promise.all([import("./bedrock-sigv4"), import("./bedrock-event-stream")]));

async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent[]> {
  const [, { readEventStream }] = await loadBedrockLibraries();
  yield* readEventStream(body);
}

/** The placeholder a Bedrock base URL carries for the region (`https://bedrock-runtime.{region}.amazonaws.com`). */
export const REGION_PLACEHOLDER = "{region}";

/**
 * A model id as a path segment, as the AWS SDKs encode it: the colon of a version
 * (`…-v1:0`) and the colons and slashes of an inference profile's ARN are escaped.
 */
export const modelPathSegment = (modelId: string): string =>
  encodeURIComponent(modelId).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A credential that does not parse was refused when it was stored; here it is a key that cannot sign. */
function credentialOf(text: string): BedrockCredential {
  const parsed = parseBedrockCredential(text);
  return "error" in parsed ? { kind: "api-key", token: text } : parsed;
}

/** The region a call goes to: a BYOK key's own, else the provider's. */
const regionOf = (provider: ProviderEntry, credential: BedrockCredential): string =>
  (credential.kind === "aws-keys" ? credential.region : undefined) ?? provider.region ?? "";

/**
 * Amazon Bedrock's Converse API (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html):
 * `POST {base}/model/{modelId}/converse`, and `/converse-stream` answering in AWS's binary event
 * stream. A call is signed with SigV4 by AWS keys, or carries a Bedrock API key as a bearer token.
 * Inference profile ids and ARNs are model ids like any other. No embeddings here: Bedrock serves
 * those through InvokeModel, in each model's own body.
 */
export const bedrockApi: UpstreamApi = {
  format: () => "bedrock",
  codec: () => bedrockConverseUpstream,
  completionUrl: (provider, upstreamModel, stream, credential) => {
    const base = provider.baseUrl.replaceAll(REGION_PLACEHOLDER, regionOf(provider, credentialOf(credential)));
    return `${base}/model/${modelPathSegment(upstreamModel)}/${stream ? "converse-stream" : "converse"}`;
  },
  cachesImplicitly: false,
  headers: (provider, credential, call) => {
    const headers = {
      "content-type": "application/json",
      accept: call.stream ? "application/vnd.amazon.eventstream" : "application/json",
      ...provider.headers,
    };
    const parsed = credentialOf(credential);
    if (parsed.kind === "api-key") return { ...headers, authorization: `Bearer ${parsed.token}` };
    return loadBedrockLibraries().then(([{ signedHeaders }]) => signedHeaders(parsed, regionOf(provider, parsed), call.url, call.body, headers));
  },
  readEvents,
  // Converse takes image bytes or an S3 location, never a web URL
  imagesInline: true,
};
