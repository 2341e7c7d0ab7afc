import { describe, expect, test } from "bun:test";
import { keySpend, limitRemainingNanos } from "../../../src/billing/key-figures";
import { dayKey, monthKey, weekKey, windowKeys } from "../../../src/billing/windows";
import { createSqliteStore } from "../../../src/store/sqlite";

const t = (iso: string) => Date.parse(iso);

describe("reset windows (UTC)", () => {
  test("days, ISO weeks starting Monday, months", () => {
    expect(dayKey(t("2026-11-22T23:59:59.999Z"))).toBe("2026-11-22");
    expect(dayKey(t("2026-11-23T00:00:00Z"))).toBe("2026-11-23");
    // 2026-11-22 is a Sunday, 2026-11-23 a Monday
    expect(weekKey(t("2026-11-22T23:59:59Z"))).toBe("2026-11-16");
    expect(weekKey(t("2026-11-23T00:00:00Z"))).toBe("2026-11-23");
    expect(weekKey(t("2026-11-16T00:00:00Z"))).toBe("2026-11-16");
    expect(monthKey(t("2026-11-30T23:59:59Z"))).toBe("2026-11");
    expect(monthKey(t("2026-12-01T00:00:00Z"))).toBe("2026-12");
    expect(weekKey(t("2027-01-01T12:00:00Z"))).toBe("2026-12-28");
  });

  test("windowKeys: the same keys all day, new ones from midnight, right when the clock goes back", () => {
    const at = (iso: string) => windowKeys(t(iso));
    expect(at("2026-11-22T00:00:00Z")).toEqual({ day: "2026-11-22", week: "2026-11-16", month: "2026-11" });
    expect(at("2026-11-22T23:59:59.999Z")).toBe(at("2026-11-22T12:00:00Z"));
    expect(at("2026-11-23T00:00:00Z")).toEqual({ day: "2026-11-23", week: "2026-11-23", month: "2026-11" });
    expect(at("2026-11-22T23:59:59.999Z")).toEqual({ day: "2026-11-22", week: "2026-11-16", month: "2026-11" });
    expect(at("2026-12-01T00:00:00Z")).toEqual({ day: "2026-12-01", week: "2026-11-30", month: "2026-12" });
    expect(at("1969-12-31T23:00:00Z")).toEqual({ day: "1969-12-31", week: "1969-12-29", month: "1969-12" });
    expect(Object.isFrozen(at("2026-12-01T00:00:00Z"))).toBe(true);
  });

  test("counters roll over at midnight UTC with no job", async () => {
    const store = createSqliteStore(":memory:");
    const add = (at: string, nanos: number, byok = false) => store.usage.add("k", { nanos, byok, windows: windowKeys(t(at)) });
    const spend = async (at: string) => keySpend(await store.usage.get("k"), t(at));

    await add("2026-11-22T10:00:00Z", 100); // Sunday
    await add("2026-11-22T23:59:59Z", 50, true);
    expect(await spend("2026-11-22T23:59:59Z")).toEqual({
      total: 100,
      day: 100,
      week: 100,
      month: 100,
      byokTotal: 50,
      byokDay: 50,
      byokWeek: 50,
      byokMonth: 50,
    });
    // Sunday -> Monday: day and week restart, month continues
    expect(await spend("2026-11-23T00:00:00Z")).toEqual({ total: 100, day: 0, week: 0, month: 100, byokTotal: 50, byokDay: 0, byokWeek: 0, byokMonth: 50 });
    await add("2026-11-23T08:00:00Z", 7);
    expect(await spend("2026-11-23T09:00:00Z")).toEqual({ total: 107, day: 7, week: 7, month: 107, byokTotal: 50, byokDay: 0, byokWeek: 0, byokMonth: 50 });
    // month boundary
    expect(await spend("2026-12-01T00:00:00Z")).toMatchObject({ total: 107, day: 0, month: 0 });
    await add("2026-12-01T00:00:01Z", 3);
    expect(await spend("2026-12-01T00:00:02Z")).toMatchObject({ total: 110, day: 3, week: 3, month: 3 });
    await store.close();
  });

  test("limit_remaining follows the key's window and include_byok_in_limit", () => {
    const spend = { total: 900, day: 100, week: 300, month: 600, byokTotal: 90, byokDay: 10, byokWeek: 30, byokMonth: 60 };
    const key = (limitReset: "daily" | "weekly" | "monthly" | null, includeByokInLimit = false) => ({ limitNanos: 1000, limitReset, includeByokInLimit });
    expect(limitRemainingNanos(key(null), spend)).toBe(100);
    expect(limitRemainingNanos(key("daily"), spend)).toBe(900);
    expect(limitRemainingNanos(key("weekly"), spend)).toBe(700);
    expect(limitRemainingNanos(key("monthly", true), spend)).toBe(340);
    expect(limitRemainingNanos({ limitNanos: 50, limitReset: null, includeByokInLimit: false }, spend)).toBe(0);
    expect(limitRemainingNanos({ limitNanos: null, limitReset: null, includeByokInLimit: false }, spend)).toBeNull();
  });
});
