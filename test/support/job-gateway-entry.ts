/**
 * `gateway serve` as main.ts runs it, with the test job kinds (job-kinds.ts) in the workers'
 * registry: for the SIGKILL and SIGTERM tests of the job machinery.
 */
import { loadConfig } from "../../src/config";
import { startGateway } from "../../src/server";

const gateway = await startGateway(loadConfig(process.env), { jobModules: [new URL("./job-kinds.ts", import.meta.url).href] });
const shutdown = async () => {
  await gateway.stop({ graceful: true });
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
