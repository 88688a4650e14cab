import { Descriptions } from "antd";
import { useTranslation } from "react-i18next";

import type { ModuleDecl } from "../../shared/kit/module";
import { displayText } from "./cells";
import { fieldLabel, moduleText } from "./texts";

/**
 * A list's sums over every row its filters select (the answer's `totals`), above the rows:
 * "Totals for the filtered range: Payments 1,204 · Gross RM 9,031.20 · …". Nothing while loading.
 */
export function ListTotals({
  module,
  totals,
}: {
  module: ModuleDecl;
  totals: Record<string, number> | undefined;
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  if (!totals || !module.totals) return null;
  return (
    <Descriptions
      size="small"
      bordered
      layout="vertical"
      title={text("totals.title")}
      column={{ xs: 2, sm: 3, xl: 6 }}
      style={{ marginBottom: 16 }}
      items={module.totals.map((field) => ({
        key: field,
        label: fieldLabel(t, module, field),
        children: (
          <span data-total={field}>{displayText(t, module, field, totals[field] ?? 0)}</span>
        ),
      }))}
    />
  );
}
