import type { Config } from "../config";
import { ensureDataDir } from "../data-dir";
import { startJobWorkers } from "../job-workers";
import { createLogger } from "../logger";
import { migrateDatabase } from "../store/open";

type Out = (line: string) => void;

/** The workers' share of the 10 s a service manager waits after SIGTERM; the rest closes the process. */
const STOP_GRACE_MS = 8_500;

/**
 * `gateway worker`: job workers only, no HTTP, for deployments that run the two apart
 * (`serve` with WORKERS=0 next to it). WORKERS threads, at least one. SIGINT/SIGTERM stop them.
 */
export async function workerCommand(config: Config, out: Out, modules: string[] = []): Promise<void> {
  if (config.database.dialect === "sqlite") ensureDataDir(config);
  await migrateDatabase(config.database);
  const logger = createLogger(config.logLevel);
  const count = Math.max(1, config.jobs.workers);
  const workers = await startJobWorkers(config, { count, logger, modules });
  const shutdown = async () => {
    await workers.stop(STOP_GRACE_MS);
    process.exit(0);
  };
  // before the line that says they run: a stop sent on reading it must find the handlers (a
  // SIGTERM in between ended the process with the default action, exit 143, under load)
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  out(`job workers running: ${count}`);
  logger.info("job workers running", { workers: count, instance: config.instanceId });
}
