import { describe, expect, test } from "bun:test";
import { CircuitBreakers } from "../../../src/gateway/routing/circuit";

function setup(failures = 3, cooldownMs = 1000) {
  let now = 1_000_000;
  const cb = new CircuitBreakers(failures, cooldownMs, () => now);
  return { cb, tick: (ms: number) => (now += ms), now: () => now };
}

describe("CircuitBreakers", () => {
  test("unknown endpoints are healthy", () => {
    expect(setup().cb.health("x")).toBe("healthy");
  });

  test("opens after N consecutive failures, not before", () => {
    const { cb } = setup(3);
    cb.failure("x");
    cb.failure("x");
    expect(cb.health("x")).toBe("healthy");
    cb.failure("x");
    expect(cb.health("x")).toBe("open");
    expect(cb.health("y")).toBe("healthy");
  });

  test("a success in between resets the count", () => {
    const { cb } = setup(3);
    cb.failure("x");
    cb.failure("x");
    cb.success("x");
    cb.failure("x");
    cb.failure("x");
    expect(cb.health("x")).toBe("healthy");
  });

  test("one probe after the cooldown; concurrent requests still see it open", () => {
    const { cb, tick } = setup(2, 1000);
    cb.failure("x");
    cb.failure("x");
    tick(999);
    expect(cb.health("x")).toBe("open");
    expect(cb.claimProbe("x")).toBe(false);
    tick(1);
    expect(cb.health("x")).toBe("probe");
    expect(cb.claimProbe("x")).toBe(true);
    expect(cb.health("x")).toBe("open");
    expect(cb.claimProbe("x")).toBe(false);
  });

  test("probe success closes the circuit", () => {
    const { cb, tick } = setup(2, 1000);
    cb.failure("x");
    cb.failure("x");
    tick(1000);
    expect(cb.claimProbe("x")).toBe(true);
    cb.success("x");
    expect(cb.health("x")).toBe("healthy");
    // and it takes N fresh failures to open again
    cb.failure("x");
    expect(cb.health("x")).toBe("healthy");
  });

  test("probe failure reopens for a full cooldown", () => {
    const { cb, tick } = setup(2, 1000);
    cb.failure("x");
    cb.failure("x");
    tick(1000);
    expect(cb.claimProbe("x")).toBe(true);
    tick(50);
    cb.failure("x");
    expect(cb.health("x")).toBe("open");
    tick(999);
    expect(cb.health("x")).toBe("open");
    tick(1);
    expect(cb.health("x")).toBe("probe");
  });

  test("a probe whose outcome is never reported frees the slot after another cooldown", () => {
    const { cb, tick } = setup(1, 1000);
    cb.failure("x");
    tick(1000);
    expect(cb.claimProbe("x")).toBe(true);
    tick(999);
    expect(cb.health("x")).toBe("open");
    tick(1);
    expect(cb.health("x")).toBe("probe");
    expect(cb.claimProbe("x")).toBe(true);
  });

  test("claimProbe on a healthy endpoint claims nothing", () => {
    const { cb } = setup();
    expect(cb.claimProbe("x")).toBe(false);
    expect(cb.health("x")).toBe("healthy");
  });

  test("Retry-After holds the endpoint back for that long even below N failures", () => {
    const { cb, tick } = setup(5, 1000);
    cb.failure("x", 2500);
    expect(cb.health("x")).toBe("open");
    tick(2499);
    expect(cb.health("x")).toBe("open");
    tick(1);
    expect(cb.health("x")).toBe("healthy");
  });

  test("Retry-After longer than the cooldown wins over the probe", () => {
    const { cb, tick } = setup(1, 1000);
    cb.failure("x", 5000);
    tick(1000);
    expect(cb.health("x")).toBe("open");
    expect(cb.claimProbe("x")).toBe(false);
    tick(4000);
    expect(cb.health("x")).toBe("probe");
  });

  test("a success clears a Retry-After hold", () => {
    const { cb } = setup(5, 1000);
    cb.failure("x", 60_000);
    cb.success("x");
    expect(cb.health("x")).toBe("healthy");
  });

  test("zero or missing Retry-After adds no hold", () => {
    const { cb } = setup(5, 1000);
    cb.failure("x", 0);
    cb.failure("x", undefined);
    expect(cb.health("x")).toBe("healthy");
  });
});
