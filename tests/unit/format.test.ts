import dayjs from "dayjs";
import "dayjs/locale/zh-cn";
import { afterEach, describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "../../src/app/format";

describe("display dates", () => {
  afterEach(() => {
    dayjs.locale("en");
  });

  it("shows DD MMM YYYY in English", () => {
    dayjs.locale("en");
    expect(formatDate("2026-09-19T03:00:00Z")).toBe("19 Sep 2026");
  });

  it("shows the Chinese year-month-day form in Chinese", () => {
    dayjs.locale("zh-cn");
    expect(formatDate("2026-09-19T03:00:00Z")).toBe("2026年9月19日");
    expect(formatDateTime("2026-09-19T03:00:00Z")).toMatch(/^2026年9月19日 \d\d:\d\d$/);
  });

  it("shows the fallback for a missing or unreadable date", () => {
    expect(formatDate(null, "Never")).toBe("Never");
    expect(formatDate("not a date")).toBe("—");
  });
});
