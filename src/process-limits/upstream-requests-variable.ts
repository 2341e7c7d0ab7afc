/**
 * Bun's fetch sends at most BUN_CONFIG_MAX_HTTP_REQUESTS requests at once (256 when unset) and
 * queues the rest; it reads the variable once, when the process starts (from the environment or
 * an env file), so setting it later does nothing. A gateway's answers last seconds to minutes,
 * so that queue would hold every client past the 256th. The gateway therefore owns the variable:
 * unset, it starts itself again with the highest value Bun accepts (upstream-requests.ts). A file
 * of its own so that src/main.ts reads the name without loading the code that relaunches.
 */
export const UPSTREAM_REQUESTS_VARIABLE = "BUN_CONFIG_MAX_HTTP_REQUESTS";
