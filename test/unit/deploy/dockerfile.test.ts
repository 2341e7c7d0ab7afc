// The Dockerfile and .dockerignore, read as instructions: what the image is built from and how it
// runs. Building it needs a container engine with access to the base images; .ci/image-check.sh
// does that where one runs.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../../package.json" with { type: "json" };

const root = join(import.meta.dir, "../../..");

type Instruction = { stage: number; keyword: string; args: string };

/** One instruction a line, continuations joined, comments and the parser directive left out. */
function instructions(text: string): Instruction[] {
  let stage = -1;
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [keyword = "", ...rest] = line.split(/\s+/);
      if (keyword.toUpperCase() === "FROM") stage++;
      return { stage, keyword: keyword.toUpperCase(), args: rest.join(" ") };
    });
}

const dockerfile = instructions(readFileSync(join(root, "Dockerfile"), "utf8"));
const froms = dockerfile.filter((i) => i.keyword === "FROM");
const final = dockerfile.filter((i) => i.stage === froms.length - 1);
const argsOf = (keyword: string, list = final) => list.filter((i) => i.keyword === keyword).map((i) => i.args);

test("the build stage installs from the lockfile and builds with Bun 1.4", () => {
  const engine = pkg.engines.bun;
  expect(engine).toStartWith(">=1.4.0");
  expect(froms[0]!.args).toBe("oven/bun:1.4 AS source");
  const build = dockerfile.filter((i) => i.stage === 0);
  expect(argsOf("RUN", build)).toEqual(["bun install --frozen-lockfile", "bun run build && mkdir -p /out/data && cp dist/gateway /out/gateway"]);
  // the patched dependency is patched at install time: the patch must be there before it
  const copies = argsOf("COPY", build);
  expect(copies.slice(0, 2)).toEqual(["package.json bun.lock bunfig.toml ./", "patches ./patches"]);
});

test("the runtime stage: a distroless glibc base, only the binary, non-root, data in /data, the health check", () => {
  expect(froms.at(-1)!.args).toBe("gcr.io/distroless/cc-debian12:nonroot");
  expect(argsOf("COPY")).toEqual(["--from=binary /out/gateway /gateway", "--from=binary --chown=65532:65532 /out/data /data"]);
  expect(argsOf("USER")).toEqual(["65532:65532"]);
  expect(argsOf("EXPOSE")).toEqual(["8080"]);
  expect(argsOf("VOLUME")).toEqual(["/data"]);
  const env = Object.fromEntries(
    argsOf("ENV")
      .join(" ")
      .split(/\s+/)
      .map((pair) => pair.split("=") as [string, string]),
  );
  expect(env).toEqual({ HOST: "0.0.0.0", PORT: "8080", DATABASE_URL: "file:/data/gateway.db", BUN_CONFIG_MAX_HTTP_REQUESTS: "65535" });
  expect(argsOf("ENTRYPOINT")).toEqual(['["/gateway"]']);
  expect(argsOf("CMD")).toEqual(['["serve"]']);
  expect(argsOf("HEALTHCHECK")[0]).toEndWith('CMD ["/gateway", "healthcheck"]');
});

test("the binary comes from the source build or, for release images, from the release binaries", () => {
  expect(dockerfile[0]).toEqual({ stage: -1, keyword: "ARG", args: "BINARY=source" });
  expect(froms.map((f) => f.args)).toContain("${BINARY} AS binary");
  const release = dockerfile.filter((i) => i.stage === froms.findIndex((f) => f.args.endsWith("AS release")));
  expect(argsOf("COPY", release)).toEqual(["--from=release-binaries . /release/"]);
  // the file names `bun run build --release` writes (scripts/build.ts)
  expect(argsOf("RUN", release)[0]).toContain('cp /release/gateway-*-"$suffix" /out/gateway');
  expect(argsOf("RUN", release)[0]).toContain('amd64) suffix="linux-$X64_VARIANT"');
  expect(argsOf("RUN", release)[0]).toContain('arm64) suffix="linux-arm64"');
});

test(".dockerignore keeps node_modules, data, dist and .git out of the build context", () => {
  const ignored = readFileSync(join(root, ".dockerignore"), "utf8")
    .split("\n")
    .filter((l) => l && !l.startsWith("#"));
  expect(ignored).toEqual(expect.arrayContaining(["node_modules", "data", "dist", ".git"]));
});
