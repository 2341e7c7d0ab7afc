import { parseArgs } from "node:util";
import { cliOrigin } from "../audit/origin";
import type { Config } from "../config";
import { ensureDataDir } from "../data-dir";
import { createScimToken } from "../modules/scim/tokens";
import { openStore } from "../store/open";
import { UsageError } from "./usage";

type Out = (line: string) => void;

/** `gateway scim token create --name N`: prints the raw token once, as POST /api/v1/scim/tokens answers it. */
export async function scimCommand(config: Config, args: string[], out: Out): Promise<void> {
  const [what, sub, ...rest] = args;
  if (what !== "token" || sub !== "create") throw new UsageError(`unknown scim subcommand '${[what, sub].filter(Boolean).join(" ")}': expected 'token create'`);
  const { values } = parseArgs({ args: rest, options: { name: { type: "string" } }, strict: true });
  const name = values.name?.trim();
  if (!name || name.length > 100) throw new UsageError("--name: required, at most 100 characters");
  if (config.database.dialect === "sqlite") ensureDataDir(config);
  const store = await openStore(config.database);
  try {
    const { token } = await createScimToken({ store, clock: Date.now }, cliOrigin("scim token create"), name);
    out(token);
  } finally {
    await store.close();
  }
}
