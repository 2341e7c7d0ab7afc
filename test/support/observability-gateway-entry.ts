/**
 * `gateway serve` as main.ts runs it, with the in-test observability parts
 * (observability-parts.ts) in the workers: for forwarding across a SIGKILL and a restart.
 */
import { loadConfig } from "../../src/config";
import { startGateway } from "../../src/server";

const gateway = await startGateway(loadConfig(process.env), { jobModules: [new URL("./observability-parts.ts", import.meta.url).href] });
const shutdown = async () => {
  await gateway.stop({ graceful: true });
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
