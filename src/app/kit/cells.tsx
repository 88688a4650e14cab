import { Tag, Typography } from "antd";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { Link } from "react-router";

import {
  enumValuesOf,
  filterKindsOf,
  type ChangeList,
  type Display,
  type LinkedModule,
} from "../../shared/kit/module";
import { formatBasisPoints, formatRinggit } from "../../shared/money";
import { formatDate, formatDateTime } from "../format";
import { linkedModule, recordPath } from "./links";
import { TAG_COLOURS } from "./tag-colours";
import { fieldLabel, moduleText, valueLabel } from "./texts";

type Row = Record<string, unknown>;
const COUNT_FORMAT = new Intl.NumberFormat("en");
/** What the cells read of a module: its fields, its words and its pages. */
type Described = LinkedModule;

function displayOf(module: Described, field: string): Display | undefined {
  const decl = module.fields[field];
  if (!decl) return undefined;
  if (decl.display) return decl.display;
  // A closed set reads as its translated value; instants as dates and times.
  if (enumValuesOf(decl.schema)) return undefined;
  return decl.schema.def.type === "boolean" ? { kind: "yesNo" } : undefined;
}

const isInstantField = (module: Described, field: string) => {
  const decl = module.fields[field];
  return decl !== undefined && filterKindsOf(decl.schema)[0] === "dateRange";
};

/**
 * A value as text, the way the list shows it (CSV cells, titles): a closed set translated,
 * money in ringgit, instants as dates, nothing as the module's "none".
 */
export function displayText(
  t: TFunction,
  module: Described,
  field: string,
  value: unknown,
): string {
  const text = moduleText(t, module);
  if (value === null || value === undefined || value === "") {
    return text(module.fields[field]?.empty ?? "none");
  }
  // Several values of a closed set (the roles a message goes to), each translated.
  const display = displayOf(module, field);
  if (Array.isArray(value) && display?.kind !== "changes") {
    return value.map((item) => valueLabel(t, module, field, item)).join(", ");
  }
  if (enumValuesOf(module.fields[field]!.schema)) return valueLabel(t, module, field, value);
  switch (display?.kind) {
    case "changes":
      return (value as ChangeList)
        .map((change) => {
          const [label, from, to] = changeText(t, display.of, change);
          return `${label}: ${from} → ${to}`;
        })
        .join("; ");
    case "money":
      return formatRinggit(Number(value));
    case "basisPoints":
      return formatBasisPoints(Number(value));
    case "date":
      return formatDate(String(value));
    case "count":
      return COUNT_FORMAT.format(Number(value));
    case "yesNo":
      return text(value ? "yes" : "no");
    case "dateTime":
      return formatDateTime(String(value));
    default:
      return isInstantField(module, field) ? formatDateTime(String(value)) : String(value);
  }
}

/** One proposed change in the other module's words: its label, the old and the new value. */
function changeText(
  t: TFunction,
  of: Described,
  { field, from, to }: ChangeList[number],
): readonly [string, string, string] {
  // A field the module no longer has is named by its key and its values shown as they are.
  if (!(field in of.fields)) return [field, from ?? t("kit:none"), to] as const;
  return [
    fieldLabel(t, of, field),
    displayText(t, of, field, from),
    displayText(t, of, field, to),
  ] as const;
}

const CHANGE_LABEL = {
  textAlign: "start",
  fontWeight: 400,
  paddingInlineEnd: 12,
  verticalAlign: "top",
  whiteSpace: "nowrap",
} as const;

/** Proposed changes, a line per field: label, old value, new value (the new one stands out). */
function ChangeTable({ t, of, changes }: { t: TFunction; of: Described; changes: ChangeList }) {
  return (
    <table style={{ borderCollapse: "collapse" }}>
      <tbody>
        {changes.map((change) => {
          const [label, from, to] = changeText(t, of, change);
          return (
            <tr key={change.field}>
              <th scope="row" style={CHANGE_LABEL}>
                {label}
              </th>
              <td>
                <Typography.Text type="secondary">{from}</Typography.Text>
                {" → "}
                <Typography.Text strong>{to}</Typography.Text>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A list or detail cell, drawn by the field's display kind. */
export function renderCell(
  t: TFunction,
  module: Described,
  field: string,
  value: unknown,
  row: Row,
): ReactNode {
  const text = displayText(t, module, field, value);
  if (value === null || value === undefined || value === "") {
    return <Typography.Text type="secondary">{text}</Typography.Text>;
  }
  const display = displayOf(module, field);
  switch (display?.kind) {
    case "tag": {
      const colours = TAG_COLOURS[display.colours[String(value)] ?? "grey"];
      return <Tag style={{ ...colours, marginInlineEnd: 0 }}>{text}</Tag>;
    }
    case "link": {
      const id = row[display.idField];
      if (id === null || id === undefined) return text;
      return <Link to={recordPath(linkedModule(module, display.to), String(id))}>{text}</Link>;
    }
    case "changes":
      return <ChangeTable t={t} of={display.of} changes={value as ChangeList} />;
    case "text":
      return display.strong ? <Typography.Text strong>{text}</Typography.Text> : text;
    default:
      // A date is one unit: Chinese text may break between any two characters ("29 / 日").
      return isInstantField(module, field) || display?.kind === "date" ? (
        <NoWrap>{text}</NoWrap>
      ) : (
        text
      );
  }
}

/** Text that never wraps inside itself (a date and time in a narrow column). */
export function NoWrap({ children }: { children: ReactNode }) {
  return <span style={{ whiteSpace: "nowrap" }}>{children}</span>;
}
