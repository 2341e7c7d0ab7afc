import { bigint } from "drizzle-orm/pg-core";

/** int8 columns read back as JS numbers: times in epoch milliseconds, money in nano-dollars. */
export const millis = (name: string) => bigint(name, { mode: "number" });
export const nanos = (name: string) => bigint(name, { mode: "number" });
