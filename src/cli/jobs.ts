import { parseArgs } from "node:util";
import type { Config } from "../config";
import { ensureDataDir } from "../data-dir";
import { GatewayError } from "../errors";
import { listJobs, retryJob } from "../modules/jobs/service";
import { JOB_STATES, type JobState } from "../store/job-store";
import { openStore } from "../store/open";
import { UsageError } from "./usage";

type Out = (line: string) => void;

const isJobState = (value: string): value is JobState => (JOB_STATES as readonly string[]).includes(value);

function listArgs(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { dead: { type: "boolean" }, state: { type: "string" }, kind: { type: "string" }, limit: { type: "string" }, offset: { type: "string" } },
    strict: true,
  });
  if (values.dead && values.state !== undefined && values.state !== "dead") throw new UsageError("--dead and --state: give one of them");
  const state = values.dead ? "dead" : values.state;
  if (state !== undefined && !isJobState(state)) throw new UsageError(`--state: expected one of ${JOB_STATES.join(", ")} (got "${state}")`);
  const count = (name: string, raw: string | undefined, min: number) => {
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`--${name}: expected an integer >= ${min} (got "${raw}")`);
    return Number(raw);
  };
  return { state, kind: values.kind, limit: count("limit", values.limit, 1), offset: count("offset", values.offset, 0) };
}

/** `gateway jobs list [--dead | --state S] [--kind K] [--limit N] [--offset N]` and `gateway jobs retry ID`: one JSON object per line, as the API shows jobs. */
export async function jobsCommand(config: Config, args: string[], out: Out): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== "list" && sub !== "retry") throw new UsageError(`unknown jobs subcommand '${sub ?? ""}': expected 'list' or 'retry'`);
  const query = sub === "list" ? listArgs(rest) : undefined;
  const id = sub === "retry" ? rest[0] : undefined;
  if (sub === "retry" && (id === undefined || rest.length !== 1)) throw new UsageError("jobs retry: expected one job id");
  if (config.database.dialect === "sqlite") ensureDataDir(config);
  const store = await openStore(config.database);
  try {
    if (query) {
      const { data, total_count } = await listJobs(store.jobs, query);
      for (const job of data) out(JSON.stringify(job));
      if (total_count > data.length) process.stderr.write(`${data.length} of ${total_count} jobs shown (--limit, --offset)\n`);
      return;
    }
    out(JSON.stringify((await retryJob(store.jobs, id!, Date.now())).data));
  } catch (err) {
    // not found, not dead: the command line named the wrong job
    if (err instanceof GatewayError && err.status < 500) throw new UsageError(err.message);
    throw err;
  } finally {
    await store.close();
  }
}
