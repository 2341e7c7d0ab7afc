import type { Config } from "../../config";
import type { SecretBox } from "../../crypto/secret-box";
import type { RouterState } from "../../gateway/routing/router-state";
import type { Logger } from "../../logger";
import type { ObservabilityParts } from "../../observability/jobs/parts";
import type { Store } from "../../store/store";
import type { Telemetry } from "../../telemetry/telemetry";

/** What a job handler may use: the worker's own store connection, the configuration, its logger, its routing state. */
export type JobDeps = {
  store: Store;
  config: Config;
  logger: Logger;
  clock: () => number;
  /**
   * Has the process that took a request release its reservation once a job settled it: on SQLite
   * reservations live in that process's memory, so the job's own commit cannot free them.
   */
  releaseReservation?: (id: string) => void;
  /**
   * This worker's own routing state (circuits, live figures of video endpoints), shared with no
   * other worker, instance or the HTTP process: see worker-main.ts.
   */
  router: RouterState;
  /** warn lines for failed upstream calls and circuit changes, into the worker's log */
  telemetry: Telemetry;
  /**
   * Observability forwarding: destinations read from this worker's own store (no read cache, so a
   * delivery sees a destination as it is now) and the sender of each type. Senders' HTTP:
   * `senderDepsOf({ config, clock })` (src/observability/sender-http.ts).
   */
  observability: ObservabilityParts;
  /** seals and opens job payloads that carry content; built from the config when absent */
  secrets?: SecretBox;
};
