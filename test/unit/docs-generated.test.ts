// The reference pages under docs/reference/ are what scripts/generate-docs.ts makes from the config
// schema, the CLI usage, the metrics registry and the error definitions: a change to those without
// `bun run docs:generate` fails here.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { loaderDefaults, usageVariables } from "../../scripts/docs/config-reference";
import { generatedDocs, REFERENCE_DIR } from "../../scripts/generate-docs";

const pages = await generatedDocs();

test.each(Object.keys(pages))("docs/reference/%s is up to date (run `bun run docs:generate`)", async (name) => {
  expect(await Bun.file(join(REFERENCE_DIR, name)).text()).toBe(pages[name]!);
});

test("every gateway.yaml key and every environment variable of --help is in the configuration reference", () => {
  const page = pages["configuration.md"]!;
  for (const v of usageVariables()) expect(page).toContain(`| \`${v.name}\` |`);
  expect(page).toContain("| `routing.circuit_failures` | integer (≥ 1) | `5` | `GATEWAY_CIRCUIT_FAILURES` |");
  expect(page).toContain("| `providers[].aws.region` |");
});

test("the loader's defaults are read through section aliases and constants", () => {
  const source = "const jobs = file.jobs ?? {};\nconst x = jobs.lease_seconds ?? 60_000, y = file.routing?.circuit_failures ?? LIMIT;";
  expect(Object.fromEntries(loaderDefaults([source], new Map([["LIMIT", "5"]])))).toEqual({ "jobs.lease_seconds": "60000", "routing.circuit_failures": "5" });
});

test("the metrics reference lists each metric with its type and labels", () => {
  expect(pages["metrics.md"]).toContain("| `gateway_requests_total` | counter | `route`, `method`, `status`, `model` |");
});
