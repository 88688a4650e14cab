import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTranslator, type Texts } from "../../../src/calculator/i18n";
import { CALCULATOR_FIELDS } from "../../../src/shared/calculator/inputs";
import { RATIO_GROUPS, RATIO_KEYS, type RatioReason } from "../../../src/shared/calculator/ratios";
import { LANGUAGES } from "../../../src/shared/language";

const ROOT = join(import.meta.dirname, "../../..");
const read = (language: string) =>
  JSON.parse(readFileSync(join(ROOT, "locales", language, "calculator.json"), "utf8")) as Texts;

const REASONS: RatioReason[] = [
  "no-expenses",
  "no-income",
  "no-inflow",
  "no-assets",
  "no-target",
  "debts-exceed-assets",
  "insolvent",
  "spending-exceeds-income",
  "non-positive-networth",
];

/** Every key the page and the e-mail build at run time from the shared tables. */
const builtKeys = [
  ...CALCULATOR_FIELDS.flatMap((f) => [
    `fields.${f.key}.label`,
    ...(f.hasHelp ? [`fields.${f.key}.help`] : []),
  ]),
  ...RATIO_GROUPS.map((g) => `results.groups.${g.key}`),
  ...RATIO_KEYS.flatMap((k) => [
    `ratios.${k}.name`,
    `ratios.${k}.optimum`,
    `ratios.${k}.explanation`,
  ]),
  ...REASONS.map((r) => `reasons.${r}`),
  ...["optimum", "moderate", "adverse", "not-applicable"].map((b) => `bands.${b}`),
  ...["negative", "notANumber", "tooManyDecimals", "tooLarge", "tooLong", "notText"].map(
    (e) => `errors.${e}`,
  ),
  ...["emailRequired", "emailInvalid", "captchaRequired"].map((v) => `report.validation.${v}`),
  ...LANGUAGES.map((l) => `language.${l}`),
  "email.subject",
  "email.greeting",
  "email.greetingNoName",
  "email.intro",
  "email.footer",
];

/** `t("…")` literals in the page's source files. */
function literalKeys(): string[] {
  const dir = join(ROOT, "src/calculator");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".tsx"))
    .flatMap((file) => {
      const source = readFileSync(join(dir, file), "utf8");
      return [...source.matchAll(/\bt\(\s*"([^"]+)"/g)].map((m) => m[1] ?? "");
    });
}

describe.each(LANGUAGES)("the calculator's texts in %s", (language) => {
  const t = createTranslator(read(language));
  const missing = (keys: string[]) => keys.filter((key) => t(key) === key);

  it("name every field, ratio, group, band, reason, error and e-mail part", () => {
    expect(missing(builtKeys)).toEqual([]);
  });

  it("have every literal key the page asks for", () => {
    const keys = literalKeys();
    expect(keys.length).toBeGreaterThan(20);
    expect(missing(keys)).toEqual([]);
  });

  it("give the spec's titles and messages", () => {
    if (language !== "en-US") return;
    expect(t("meta.title")).toBe("Financial Goal Calculator");
    expect(t("form.title")).toBe("Financial Ratios Input");
    expect(t("report.title")).toBe("Email Me My Report");
    expect(t("report.validation.emailRequired")).toBe("Email is required");
    expect(t("report.validation.emailInvalid")).toBe("Please insert valid email address");
    expect(t("report.validation.captchaRequired")).toBe("Recaptcha is required");
  });
});

describe("createTranslator", () => {
  const t = createTranslator({ a: { b: "Hello {{name}}, {{ name }}!" }, plain: "x" });

  it("fills placeholders and leaves unknown ones visible", () => {
    expect(t("a.b", { name: "Aisyah" })).toBe("Hello Aisyah, Aisyah!");
    expect(t("a.b")).toBe("Hello {{name}}, {{ name }}!");
  });

  it("shows a missing key rather than an empty text", () => {
    expect(t("a.missing")).toBe("a.missing");
    expect(t("a")).toBe("a");
    expect(t("plain.deeper")).toBe("plain.deeper");
  });
});
