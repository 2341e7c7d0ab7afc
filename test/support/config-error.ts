import { expect } from "bun:test";
import { ConfigError } from "../../src/config";

/** The message of the ConfigError `fn` throws; fails the test when it throws nothing or something else. */
export function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}
