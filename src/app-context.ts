import type { Config } from "./config";
import type { Logger } from "./logger";
import type { Store } from "./store/store";
import type { Catalog } from "./catalog/types";
import type { RouterState } from "./gateway/routing/router-state";
import type { GenerationWriter } from "./gateway/generation-writer";
import type { SecretBox } from "./crypto/secret-box";

/** Everything a route module needs, built once by main (or by a test). */
export type AppContext = {
  config: Config;
  store: Store;
  logger: Logger;
  /** epoch milliseconds; injected so tests can move time */
  clock: () => number;
  catalog: Catalog;
  router: RouterState;
  /** commits generation records after their answers; flush before reading usage */
  generations: GenerationWriter;
  /** seals BYOK secrets under the master key; built from config when absent (see secretBoxOf) */
  secrets?: SecretBox;
};
