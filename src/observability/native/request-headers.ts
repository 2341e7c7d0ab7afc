import type { Destination } from "../contract";
import { destinationHeaders as mergedUnder, USER_AGENT } from "../outbound-headers";

/**
 * The headers of a native send: the user's `headers` under what the protocol and the credentials
 * need (the shared rule of every destination type, outbound-headers.ts), and our User-Agent
 * unless the user set one: for these types it is a default, not a protocol header.
 */
export function destinationHeaders(
  destination: Destination,
  required: Record<string, string>,
  contentType: string | null = "application/json",
): Record<string, string> {
  const fixed: Record<string, string> = { ...(contentType ? { "content-type": contentType } : {}), ...required };
  const merged = mergedUnder(destination.config.headers, fixed);
  return Object.keys(merged).some((name) => name.toLowerCase() === "user-agent") ? merged : { "user-agent": USER_AGENT, ...merged };
}

/** `Authorization: Basic` of a user and password. */
export const basicAuth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
