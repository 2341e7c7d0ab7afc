/**
 * prom-client's own classes, each in its file (src/telemetry/prom-client.ts says why they are
 * imported one by one): typed as the package's entry declares them.
 */
declare module "prom-client/lib/registry.js" {
  import { Registry } from "prom-client";
  export default Registry;
}

declare module "prom-client/lib/counter.js" {
  import { Counter } from "prom-client";
  export default Counter;
}

declare module "prom-client/lib/gauge.js" {
  import { Gauge } from "prom-client";
  export default Gauge;
}

declare module "prom-client/lib/histogram.js" {
  import { Histogram } from "prom-client";
  export default Histogram;
}
