import { renderHook, act } from "@testing-library/react";
import dayjs from "dayjs";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import {
  changeLanguage,
  i18nProvider,
  initI18n,
  pickInitialLanguage,
  useAntdLocale,
} from "../../src/providers/i18n";

describe("the starting language", () => {
  it("is the stored choice when there is one", () => {
    expect(pickInitialLanguage("cn-ZH", ["en-US"])).toBe("cn-ZH");
    expect(pickInitialLanguage("en-US", ["zh-CN"])).toBe("en-US");
  });

  it("otherwise follows the browser: any Chinese means cn-ZH", () => {
    expect(pickInitialLanguage(null, ["zh-CN"])).toBe("cn-ZH");
    expect(pickInitialLanguage(null, ["zh-TW"])).toBe("cn-ZH");
    expect(pickInitialLanguage(null, ["zh"])).toBe("cn-ZH");
    expect(pickInitialLanguage(null, ["fr-FR", "zh-Hans-CN"])).toBe("cn-ZH");
    expect(pickInitialLanguage(null, ["en-GB", "zh-CN"])).toBe("en-US");
  });

  it("ignores a stored value that is not a language of the product", () => {
    expect(pickInitialLanguage("zh-CN", ["zh-CN"])).toBe("cn-ZH");
    expect(pickInitialLanguage("klingon", ["fr"])).toBe("en-US");
  });

  it("defaults to English", () => {
    expect(pickInitialLanguage(null, [])).toBe("en-US");
    expect(pickInitialLanguage(undefined, ["fr-FR", "de"])).toBe("en-US");
  });
});

describe("switching language", () => {
  beforeAll(async () => {
    localStorage.setItem("language", "en-US");
    await initI18n();
  });

  it("starts in the stored language with its texts loaded", () => {
    expect(i18next.language).toBe("en-US");
    expect(i18next.t("common:logout")).toBe("Logout");
    expect(document.documentElement.lang).toBe("en");
  });

  it("changes texts, <html lang>, dates and antd at once, and remembers the choice", async () => {
    const { result } = renderHook(() => useAntdLocale());
    expect(result.current?.locale).toBe("en");

    await act(() => changeLanguage("cn-ZH"));

    expect(i18next.t("common:logout")).toBe("退出登录");
    expect(document.documentElement.lang).toBe("zh-CN");
    expect(localStorage.getItem("language")).toBe("cn-ZH");
    expect(dayjs("2026-03-05").format("MMM")).toBe("3月");
    expect(result.current?.locale).toBe("zh-cn");
    expect(i18nProvider.getLocale()).toBe("cn-ZH");

    await act(() => i18nProvider.changeLocale("en-US"));
    expect(i18next.t("common:logout")).toBe("Logout");
    expect(document.documentElement.lang).toBe("en");
    expect(localStorage.getItem("language")).toBe("en-US");
    expect(dayjs("2026-03-05").format("MMM")).toBe("Mar");
    expect(result.current?.locale).toBe("en");
  });

  it("ends in the last language asked for when switches overlap", async () => {
    const { result } = renderHook(() => useAntdLocale());
    await act(() => Promise.all([changeLanguage("cn-ZH"), changeLanguage("en-US")]));
    expect(i18next.language).toBe("en-US");
    expect(document.documentElement.lang).toBe("en");
    expect(localStorage.getItem("language")).toBe("en-US");
    expect(dayjs("2026-03-05").format("MMM")).toBe("Mar");
    expect(result.current?.locale).toBe("en");
  });

  it("counts in Chinese without a singular form", async () => {
    await changeLanguage("cn-ZH");
    const resolver = i18next.services.pluralResolver as {
      getSuffix: (code: string, count: number) => string;
    };
    expect(resolver.getSuffix("cn-ZH", 1)).toBe("_other");
    await changeLanguage("en-US");
    expect(resolver.getSuffix("en-US", 1)).toBe("_one");
  });

  it("answers Refine's translate with a default when a key is missing", () => {
    expect(i18nProvider.translate("nowhere.key", "Fallback text")).toBe("Fallback text");
    expect(i18nProvider.translate("notifications.success")).toBe("Successful");
  });
});
