/** One labelled input of the form, with its help text and its error, both tied to it for
 * screen readers. Amounts carry an `RM` prefix and the numeric keyboard on phones. */
import { memo } from "react";
import type { CalculatorFieldSpec } from "../shared/calculator/inputs";
import { useTranslation } from "./translation";

interface FieldProps {
  spec: CalculatorFieldSpec;
  value: string;
  error: string | undefined;
  onChange: (field: CalculatorFieldSpec["key"], text: string) => void;
}

export const CalculatorInput = memo(function CalculatorInput({
  spec,
  value,
  error,
  onChange,
}: FieldProps) {
  const { t } = useTranslation();
  const id = `field-${spec.key}`;
  const describedBy = [spec.hasHelp && `${id}-help`, error && `${id}-error`]
    .filter(Boolean)
    .join(" ");
  const optional = spec.key === "name" || spec.key === "targetNetworth";
  return (
    <div className={`calc-field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>
        {t(`fields.${spec.key}.label`)}
        {optional && <span className="calc-optional"> ({t("form.optional")})</span>}
      </label>
      <div className="calc-input">
        {spec.kind === "amount" && (
          <span className="calc-prefix" aria-hidden="true">
            RM
          </span>
        )}
        <input
          id={id}
          name={spec.key}
          type="text"
          inputMode={spec.kind === "amount" ? "decimal" : "text"}
          autoComplete={spec.key === "name" ? "name" : "off"}
          placeholder={spec.kind === "amount" ? "0.00" : undefined}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          onChange={(event) => onChange(spec.key, event.target.value)}
        />
      </div>
      {spec.hasHelp && (
        <p id={`${id}-help`} className="calc-help">
          {t(`fields.${spec.key}.help`)}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="calc-error">
          {t(`errors.${error}`)}
        </p>
      )}
    </div>
  );
});
