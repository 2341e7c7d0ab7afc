import { badRequest } from "../../errors";
import type { Destination, DestinationSender } from "../../observability/contract";
import { senderDepsOf } from "../../observability/sender-http";
import type { OutboundContext } from "../../outbound/policy";

/**
 * The connection test a destination passes before it is saved (OpenRouter saves only what
 * passes): the type's probe, with the destination's real headers. A failure is a 400 quoting what
 * the destination answered.
 */
export async function testConnection(ctx: OutboundContext & { clock: () => number }, sender: DestinationSender, destination: Destination): Promise<void> {
  let message: string;
  try {
    const result = await sender.probe(destination, senderDepsOf(ctx));
    if (result.ok) return;
    message = result.message;
  } catch (err) {
    message = `the test could not run: ${err instanceof Error ? err.message : String(err)}`;
  }
  throw badRequest(`Connection test failed: ${message}. Correct the config, or save without the test with ?skip_test=true`, {
    field: "config",
    reason: message,
  });
}
