import enUS from "../../locales/en-US/calculator.json";
import cnZH from "../../locales/cn-ZH/calculator.json";
import { formatRatioValue, formatRinggit, MINUS } from "../../src/shared/calculator/format";
import {
  CALCULATOR_FIELDS,
  type AmountField,
  type CalculatorAmounts,
  type CalculatorSection,
} from "../../src/shared/calculator/inputs";
import {
  computeRatios,
  RATIO_GROUPS,
  RATIOS,
  type RatioBand,
  type RatioKey,
  type RatioResult,
} from "../../src/shared/calculator/ratios";
import type { Language } from "../http/language";

/** The calculator's texts, the page's own locale files: one source of truth for every word. */
type CalculatorTexts = typeof enUS;
const TEXTS: Record<Language, CalculatorTexts> = { "en-US": enUS, "cn-ZH": cnZH };

/** `cn-ZH` is the product's tag; mail clients and screen readers need a real BCP 47 one. */
const HTML_LANG: Record<Language, string> = { "en-US": "en", "cn-ZH": "zh-CN" };

export interface FigureRow {
  label: string;
  value: string;
  negative: boolean;
}

export interface RatioRow {
  name: string;
  value: string;
  negative: boolean;
  band: RatioBand;
  bandWord: string;
  optimum: string;
  reason: string | undefined;
}

/** Everything the e-mail says, already in the visitor's language; the renderers only lay it out. */
export interface ReportContent {
  lang: string;
  subject: string;
  greeting: string;
  intro: string;
  inputs: { title: string; sections: Array<{ title: string | undefined; rows: FigureRow[] }> };
  results: {
    title: string;
    optimumLabel: string;
    groups: Array<{ title: string; rows: RatioRow[] }>;
  };
  footer: string;
}

const interpolate = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);

const SECTIONS: readonly CalculatorSection[] = ["top", "assets", "liabilities", "cashflow"];

function figureRows(
  texts: CalculatorTexts,
  amounts: CalculatorAmounts,
  section: CalculatorSection,
) {
  return CALCULATOR_FIELDS.filter(
    (field) => field.section === section && field.kind === "amount",
  ).map((field): FigureRow => {
    const key = field.key as AmountField;
    return { label: texts.fields[key].label, value: formatRinggit(amounts[key]), negative: false };
  });
}

/** A text by its dotted locale key (ratios.ts names each optimum text this way). */
function lookup(texts: CalculatorTexts, key: string): string {
  const found = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], texts);
  if (typeof found !== "string") throw new Error(`Missing calculator text ${key}`);
  return found;
}

/** The figure as the page shows it; a missing figure says why in the row's reason instead. */
function ratioValue(texts: CalculatorTexts, key: RatioKey, result: RatioResult): string {
  if (result.value === null) {
    if (result.reason === "no-target") return texts.results.setTarget;
    if (key === "basicLiquidityRatio" && result.band === "optimum") return texts.results.unlimited;
    return texts.results.noFigure;
  }
  const unit = RATIOS[key].unit;
  const figure = formatRatioValue(unit, result.value);
  return unit === "months" ? interpolate(texts.units.months, { value: figure }) : figure;
}

export function reportContent(
  language: Language,
  name: string | undefined,
  amounts: CalculatorAmounts,
): ReportContent {
  const texts = TEXTS[language];
  const ratios = computeRatios(amounts);
  // A name is one line in a greeting, whatever was pasted into the field.
  const shownName = name?.replace(/\s+/g, " ").trim();
  return {
    lang: HTML_LANG[language],
    subject: texts.email.subject,
    greeting: shownName
      ? interpolate(texts.email.greeting, { name: shownName })
      : texts.email.greetingNoName,
    intro: texts.email.intro,
    inputs: {
      title: texts.form.title,
      sections: SECTIONS.map((section) => ({
        title: section === "top" ? undefined : texts.form.sections[section],
        rows: figureRows(texts, amounts, section),
      })),
    },
    results: {
      title: texts.results.title,
      optimumLabel: texts.results.optimum,
      groups: RATIO_GROUPS.map((group) => ({
        title: texts.results.groups[group.key],
        rows: group.ratios.map((key): RatioRow => {
          const result = ratios[key];
          const value = ratioValue(texts, key, result);
          return {
            name: texts.ratios[key].name,
            value,
            negative: value.startsWith(MINUS),
            band: result.band,
            bandWord: texts.bands[result.band],
            optimum: lookup(texts, RATIOS[key].optimumKey),
            reason: result.reason && texts.reasons[result.reason],
          };
        }),
      })),
    },
    footer: texts.email.footer,
  };
}
