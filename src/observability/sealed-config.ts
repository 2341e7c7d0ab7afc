import type { SecretBox } from "../crypto/secret-box";
import type { DestinationRecord } from "../store/store";
import type { OpenConfig } from "./config-check";
import type { ConfigKeySpec } from "./contract";
import { maskSecret } from "./secret-mask";

/** The key under which the user's extra headers are sealed, as one JSON object (they may carry tokens). */
const HEADERS = "headers";

/**
 * A checked config as the store keeps it: `config` is what the API shows (secret values and
 * every header value masked), `sealedConfig` the secret values (and the headers) sealed under
 * the master key.
 */
export async function sealConfig(
  specs: readonly ConfigKeySpec[],
  open: OpenConfig,
  box: SecretBox,
): Promise<Pick<DestinationRecord, "config" | "sealedConfig">> {
  const secret = new Set(specs.filter((s) => s.secret).map((s) => s.key));
  const config: Record<string, unknown> = {};
  const sealedConfig: Record<string, string> = {};
  for (const [key, value] of Object.entries(open)) {
    if (key === HEADERS) continue;
    if (secret.has(key) && typeof value === "string") {
      config[key] = maskSecret(value);
      sealedConfig[key] = await box.seal(value);
    } else config[key] = value;
  }
  if (open.headers) {
    config.headers = Object.fromEntries(Object.entries(open.headers).map(([name, value]) => [name, maskSecret(value)]));
    sealedConfig[HEADERS] = await box.seal(JSON.stringify(open.headers));
  }
  return { config, sealedConfig };
}

/** The config in clear: the shown values with each sealed one opened in its place. */
export function openConfig(record: Pick<DestinationRecord, "config" | "sealedConfig">, box: SecretBox): OpenConfig {
  const open: OpenConfig = { ...record.config };
  delete open.headers;
  for (const [key, sealed] of Object.entries(record.sealedConfig)) {
    if (key === HEADERS) open.headers = JSON.parse(box.openSync(sealed)) as Record<string, string>;
    else open[key] = box.openSync(sealed);
  }
  return open;
}
