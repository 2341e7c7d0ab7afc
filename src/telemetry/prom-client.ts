/**
 * The four prom-client classes the gateway uses, each from its own file. The package's entry also
 * loads its Pushgateway (node:http and node:https), its cluster aggregator and its default
 * collectors (with @opentelemetry/api): about 25 ms of every start and 10 MB of resident memory
 * for code the gateway never runs (bench/README.md, "Cold start").
 */
import Counter from "prom-client/lib/counter.js";
import Gauge from "prom-client/lib/gauge.js";
import Histogram from "prom-client/lib/histogram.js";
import Registry from "prom-client/lib/registry.js";

export { Counter, Gauge, Histogram, Registry };
