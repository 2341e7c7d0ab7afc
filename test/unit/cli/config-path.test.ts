import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withConfigPath } from "../../../src/cli/config-path";
import { UsageError } from "../../../src/cli/usage";

const empty = () => mkdtempSync(join(tmpdir(), "cfgpath-"));
const withYaml = () => {
  const dir = empty();
  writeFileSync(join(dir, "gateway.yaml"), "models: []\n");
  return dir;
};

describe("where gateway.yaml is read from", () => {
  test("--config PATH and --config=PATH, relative to the working directory, anywhere on the line; the option is removed", () => {
    expect(withConfigPath(["serve", "--config", "conf/g.yaml"], {}, "/srv/gw")).toEqual({ env: { GATEWAY_CONFIG: "/srv/gw/conf/g.yaml" }, args: ["serve"] });
    expect(withConfigPath(["--config=/etc/g.yaml", "config", "check"], { GATEWAY_CONFIG: "/other.yaml" }, "/x")).toEqual({
      env: { GATEWAY_CONFIG: "/etc/g.yaml" },
      args: ["config", "check"],
    });
  });

  test("else GATEWAY_CONFIG, else ./gateway.yaml when it exists, else nothing", () => {
    const dir = withYaml();
    expect(withConfigPath([], { GATEWAY_CONFIG: "/set.yaml" }, dir).env.GATEWAY_CONFIG).toBe("/set.yaml");
    expect(withConfigPath([], {}, dir).env.GATEWAY_CONFIG).toBe(join(dir, "gateway.yaml"));
    expect(withConfigPath(["migrate"], { PORT: "1" }, empty())).toEqual({ env: { PORT: "1" }, args: ["migrate"] });
  });

  test("--config without a path is a usage error", () => {
    expect(() => withConfigPath(["--config"], {}, "/")).toThrow(UsageError);
    expect(() => withConfigPath(["--config="], {}, "/")).toThrow("--config needs a path to a gateway.yaml file");
  });
});
