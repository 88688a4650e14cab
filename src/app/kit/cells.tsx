import { Tag, Typography } from "antd";
import i18next, { type TFunction } from "i18next";
import type { ReactNode } from "react";

import {
  enumValuesOf,
  filterKindsOf,
  type Display,
  type JsonChangeList,
  type LinkedModule,
} from "../../shared/kit/module";
import { formatBasisPoints, formatRinggit } from "../../shared/money";
import { formatDate, formatDateTime } from "../format";
import { linkIdFields } from "./audit-changes";
import { linkedModule, moduleNamed } from "./links";
import { RecordLink } from "./record-link";
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

/** Changes of either kind (changeList's text values, jsonChangeList's any JSON). */
type Changes = JsonChangeList;

/** The module whose terms a `changes` field speaks: declared, or named by the row; else none. */
const changesOf = (display: Extract<Display, { kind: "changes" }>, row: Row) =>
  "of" in display ? display.of : moduleNamed(row[display.ofField]);

/**
 * A value as text, the way the list shows it (CSV cells, titles): a closed set translated,
 * money in ringgit, instants as dates, nothing as the module's "none". `row` is the record it
 * belongs to (what a `changes` field names its module by).
 */
/** The number columns of a CSV export, each with its unit: amounts in ringgit, rates in percent. */
const CSV_NUMBERS = { money: "RM", basisPoints: "%" } as const;

const csvNumberOf = (module: Described, field: string) => {
  const kind = displayOf(module, field)?.kind;
  return kind === "money" || kind === "basisPoints" ? CSV_NUMBERS[kind] : undefined;
};

/** A column's header in a CSV export: its label, with the unit of a number column ("Amount (RM)"). */
export function csvHeader(t: TFunction, module: Described, field: string): string {
  const unit = csvNumberOf(module, field);
  return unit ? `${fieldLabel(t, module, field)} (${unit})` : fieldLabel(t, module, field);
}

/**
 * A value in a CSV export: an amount or a rate as a plain number a spreadsheet can sum (62.50,
 * not "RM 62.50"), anything else as the screen shows it.
 */
export function csvText(
  t: TFunction,
  module: Described,
  field: string,
  value: unknown,
  row: Row = {},
): string {
  if (csvNumberOf(module, field) && typeof value === "number") return (value / 100).toFixed(2);
  return displayText(t, module, field, value, row);
}

export function displayText(
  t: TFunction,
  module: Described,
  field: string,
  value: unknown,
  row: Row = {},
): string {
  const text = moduleText(t, module);
  const nothing = value === null || value === undefined || value === "";
  if (nothing || (Array.isArray(value) && value.length === 0)) {
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
      return shownChanges(changesOf(display, row), value as Changes)
        .map((change) => {
          const [label, from, to] = changeText(t, changesOf(display, row), change);
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
      return isInstantField(module, field) ? formatDateTime(String(value)) : plainText(t, value);
  }
}

/** A value no module words: an object as JSON, a boolean as yes or no, nothing as "none". */
function plainText(t: TFunction, value: unknown): string {
  if (value === null || value === undefined) return t("kit:none");
  if (typeof value === "boolean") return t(value ? "kit:yes" : "kit:no");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === "";

/**
 * The changes worth showing: not a field that only holds the id behind another field's link (the
 * linked name says the same in words), nor one empty before and after (a new record's blanks).
 */
function shownChanges(of: Described | undefined, changes: Changes): Changes {
  const ids = of ? linkIdFields(of) : new Set<string>();
  return changes.filter(
    (change) => !ids.has(change.field) && !(isEmpty(change.from) && isEmpty(change.to)),
  );
}

/** One change in the other module's words: its label, the old and the new value. */
function changeText(
  t: TFunction,
  of: Described | undefined,
  { field, from, to }: Changes[number],
): readonly [string, string, string] {
  // No module words it (a setting's change in the audit log): named by its key.
  if (!of) return [field, plainText(t, from), plainText(t, to)] as const;
  // A field the module no longer has is named by the module's words for it (`formerFields`),
  // else as one no longer kept, never by its key; its values as they are.
  if (!(field in of.fields)) {
    // Only a plain name is looked up: i18next reads ":" and "." in a key as separators.
    const former = /^\w+$/.test(field) && `${of.i18n}:formerFields.${field}`;
    const label = former && i18next.exists(former) ? t(former) : t("kit:changes.formerField");
    return [label, plainText(t, from), plainText(t, to)] as const;
  }
  // A field the module has no words for (an id it never shows) is named by its key, not a
  // translation key.
  const worded = [of, ...(of.viewOf ? [of.viewOf] : [])].some((each) =>
    i18next.exists(`${each.i18n}:fields.${field}`),
  );
  return [
    worded ? fieldLabel(t, of, field) : field,
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
function ChangeTable({
  t,
  of,
  changes,
}: {
  t: TFunction;
  of: Described | undefined;
  changes: Changes;
}) {
  return (
    <table style={{ borderCollapse: "collapse" }}>
      <tbody>
        {shownChanges(of, changes).map((change) => {
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

/**
 * A list or detail cell, drawn by the field's display kind; a link only where the administrator
 * may open the page it leads to (record-link.tsx), its text elsewhere.
 */
export function renderCell(
  t: TFunction,
  module: Described,
  field: string,
  value: unknown,
  row: Row,
): ReactNode {
  const text = displayText(t, module, field, value, row);
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
      const target = linkedModule(module, display.to, row);
      if (id === null || id === undefined || !target) return text;
      return (
        <RecordLink to={target} id={String(id)}>
          {text}
        </RecordLink>
      );
    }
    case "changes":
      return <ChangeTable t={t} of={changesOf(display, row)} changes={value as Changes} />;
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
