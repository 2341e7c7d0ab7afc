import { parseBedrockCredential } from "../../catalog/bedrock-credential";
import type { ApiKindName } from "../../config-schema";
import { badRequest } from "../../errors";
import { maskProviderKey } from "./label";

/**
 * A BYOK `key` checked for the provider's API (undefined: a provider no longer in the catalog),
 * and the label shown instead of it. Most APIs take
 * one opaque key; a Bedrock provider takes a Bedrock API key, or the JSON text of AWS access keys
 * (labelled by the access key id, the part AWS itself shows), refused with a 400 naming `key` when
 * it does not parse.
 */
export function checkedProviderKey(api: ApiKindName | undefined, key: string): { label: string } {
  if (api !== "bedrock") return { label: maskProviderKey(key) };
  const parsed = parseBedrockCredential(key);
  if ("error" in parsed) throw badRequest(`Invalid field 'key': a Bedrock API key, or AWS access keys as JSON; this one ${parsed.error}`, { field: "key" });
  return { label: maskProviderKey(parsed.kind === "api-key" ? parsed.token : parsed.accessKeyId) };
}
