/** The `Financial Ratios Input` card: name and target on top, then Assets, Liabilities, Cashflow. */
import { CalculatorInput } from "./calculator-input";
import {
  CALCULATOR_FIELDS,
  type CalculatorField,
  type CalculatorSection,
} from "../shared/calculator/inputs";
import type { FormTexts } from "./storage";
import { useTranslation } from "./translation";

const SECTIONS: readonly Exclude<CalculatorSection, "top">[] = [
  "assets",
  "liabilities",
  "cashflow",
];

interface InputCardProps {
  form: FormTexts;
  errors: Record<CalculatorField, string | undefined>;
  onChange: (field: CalculatorField, text: string) => void;
  onClear: () => void;
  announcement: string;
}

export function InputCard({ form, errors, onChange, onClear, announcement }: InputCardProps) {
  const { t } = useTranslation();
  const fieldsOf = (section: CalculatorSection) =>
    CALCULATOR_FIELDS.filter((field) => field.section === section).map((spec) => (
      <CalculatorInput
        key={spec.key}
        spec={spec}
        value={form[spec.key]}
        error={errors[spec.key]}
        onChange={onChange}
      />
    ));

  return (
    <section className="calc-card calc-form" aria-labelledby="form-title">
      <h2 id="form-title">{t("form.title")}</h2>
      <p className="calc-privacy">{t("form.privacy")}</p>
      <form noValidate onSubmit={(event) => event.preventDefault()}>
        <div className="calc-grid">{fieldsOf("top")}</div>
        {SECTIONS.map((section) => (
          <fieldset key={section}>
            <legend>{t(`form.sections.${section}`)}</legend>
            <div className="calc-grid">{fieldsOf(section)}</div>
          </fieldset>
        ))}
      </form>
      <div className="calc-clear">
        <button type="button" className="calc-button secondary" onClick={onClear}>
          {t("form.clear")}
        </button>
        <p role="status" className="calc-status">
          {announcement}
        </p>
      </div>
    </section>
  );
}
