// The reference pages under docs/reference/ are what scripts/generate-docs.ts makes from the config
// schema, the CLI usage, the metrics registry and the error definitions: a change to those without
// `bun run docs:generate` fails here.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { KEY_DESCRIPTIONS, OTHER_DEFAULTS } from "../../scripts/docs/config-descriptions";
import { loaderDefaults, schemaRows, usageVariables } from "../../scripts/docs/config-reference";
import { generatedDocs, REFERENCE_DIR } from "../../scripts/generate-docs";
import { GatewayFileSchema } from "../../src/config-schema";

const ROOT = join(import.meta.dir, "../..");

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

/** The cells of each row of a Markdown table (a `\|` inside a cell is no separator), under the heading that starts with `heading`. */
function tableRows(page: string, heading: string): string[][] {
  const section = page.split(/^#{2,3} /m).find((s) => s.startsWith(heading))!;
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

describe("the configuration reference describes everything it lists", () => {
  const page = pages["configuration.md"]!;
  const keys = tableRows(page, "gateway.yaml keys");
  const variables = ["Environment variables", "Credentials of Bedrock", "Provider keys of the default catalog"].flatMap((h) => tableRows(page, h));

  test("every gateway.yaml key has a description", () => {
    expect(keys.length).toBe(schemaRows(GatewayFileSchema).length);
    expect(keys.filter((cells) => cells.length !== 5 || cells[4] === "").map((cells) => cells[0])).toEqual([]);
  });

  test("every environment variable has a description", () => {
    expect(variables.length).toBeGreaterThan(usageVariables().length);
    expect(variables.filter((cells) => cells.length !== 2 || cells[1] === "").map((cells) => cells[0])).toEqual([]);
  });

  test("every description and listed default names a key of the schema", () => {
    const schemaKeys = new Set(schemaRows(GatewayFileSchema).map((r) => r.key));
    expect([...Object.keys(KEY_DESCRIPTIONS), ...Object.keys(OTHER_DEFAULTS)].filter((key) => !schemaKeys.has(key))).toEqual([]);
  });

  test("every environment variable src/ reads is listed", () => {
    const listed = new Set(variables.map((cells) => cells[0]!.replaceAll("`", "")));
    const read = new Set<string>();
    for (const file of new Bun.Glob("src/**/*.ts").scanSync(ROOT)) {
      if (file.startsWith("src/console/web/")) continue;
      const text = readFileSync(join(ROOT, file), "utf8");
      // env.NAME, process.env.NAME, intFromEnv(env, "NAME"), and the names the AWS and Google readers spell out
      for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]*|npm_\w+)|FromEnv\(env, "([A-Z0-9_]+)"|"((?:AWS|GOOGLE)_[A-Z0-9_]+)"/g))
        read.add(m[1] ?? m[2] ?? m[3]!);
    }
    expect(read.size).toBeGreaterThan(30);
    expect([...read].filter((name) => !listed.has(name)).sort()).toEqual([]);
  });
});
