import type { Destination } from "../contract";

/**
 * A config value as text. The config was validated and its defaults applied before a sender sees
 * it (contract), so a required key is present; an absent optional one is "".
 */
export function configText(destination: Destination, key: string): string {
  const value = destination.config[key];
  return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
}

/** An optional config value: null when absent or empty. */
export function optionalConfigText(destination: Destination, key: string): string | null {
  const value = configText(destination, key);
  return value === "" ? null : value;
}

/** A base URL without its trailing slashes, so paths can be appended. */
export const baseUrlOf = (destination: Destination, key: string) => configText(destination, key).replace(/\/+$/, "");
