import { expect, test } from "bun:test";
import { transportErrorMessage } from "../../../src/providers/transport-error";

test("Bun's fetch hint is cut from what the client reads; the cause stays", () => {
  const bun = new Error(
    "ECONNRESET: The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()",
  );
  expect(transportErrorMessage(bun)).toBe("ECONNRESET: The socket connection was closed unexpectedly.");
  expect(transportErrorMessage(new Error("Unable to connect. Is the computer able to access the url?"))).toBe(
    "Unable to connect. Is the computer able to access the url?",
  );
  expect(transportErrorMessage("plain")).toBe("plain");
  expect(transportErrorMessage(new Error(" For more information, pass `verbose: true` in the second argument to fetch()"))).toBe("connection error");
});
