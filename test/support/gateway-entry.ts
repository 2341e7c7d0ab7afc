/**
 * `gateway serve` as main.ts runs it, with the job modules named on the command line (paths
 * relative to this folder, e.g. `job-kinds.ts` or `observability-parts.ts`) in the workers'
 * registry: for the tests that SIGKILL, SIGTERM and restart a gateway process.
 */
import { loadConfig } from "../../src/config";
import { startGateway } from "../../src/server";

const jobModules = process.argv.slice(2).map((path) => new URL(path, import.meta.url).href);
const gateway = await startGateway(loadConfig(process.env), { jobModules });
const shutdown = async () => {
  await gateway.stop({ graceful: true });
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
