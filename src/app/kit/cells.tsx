import { Tag, Typography } from "antd";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { Link } from "react-router";

import {
  enumValuesOf,
  filterKindsOf,
  type Display,
  type ModuleDecl,
} from "../../shared/kit/module";
import { formatBasisPoints, formatRinggit } from "../../shared/money";
import { adminShowPath } from "../../resources/administrators/paths";
import { userShowPath } from "../../resources/users/paths";
import { formatDate, formatDateTime } from "../format";
import { TAG_COLOURS } from "./tag-colours";
import { moduleText, valueLabel } from "./texts";

type Row = Record<string, unknown>;

const SHOW_PATHS = { users: userShowPath, administrators: adminShowPath } as const;

function displayOf(module: ModuleDecl, field: string): Display | undefined {
  const decl = module.fields[field];
  if (!decl) return undefined;
  if (decl.display) return decl.display;
  // A closed set reads as its translated value; instants as dates and times.
  if (enumValuesOf(decl.schema)) return undefined;
  return decl.schema.def.type === "boolean" ? { kind: "yesNo" } : undefined;
}

const isInstantField = (module: ModuleDecl, field: string) => {
  const decl = module.fields[field];
  return decl !== undefined && filterKindsOf(decl.schema)[0] === "dateRange";
};

/**
 * A value as text, the way the list shows it (CSV cells, titles): a closed set translated,
 * money in ringgit, instants as dates, nothing as the module's "none".
 */
export function displayText(t: TFunction, module: ModuleDecl, field: string, value: unknown) {
  const text = moduleText(t, module);
  if (value === null || value === undefined || value === "") {
    return text(module.fields[field]?.empty ?? "none");
  }
  const display = displayOf(module, field);
  if (enumValuesOf(module.fields[field]!.schema)) return valueLabel(t, module, field, value);
  switch (display?.kind) {
    case "money":
      return formatRinggit(Number(value));
    case "basisPoints":
      return formatBasisPoints(Number(value));
    case "date":
      return formatDate(String(value));
    case "yesNo":
      return text(value ? "yes" : "no");
    case "dateTime":
      return formatDateTime(String(value));
    default:
      return isInstantField(module, field) ? formatDateTime(String(value)) : String(value);
  }
}

/** A list or detail cell, drawn by the field's display kind. */
export function renderCell(
  t: TFunction,
  module: ModuleDecl,
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
      const to =
        display.to === "self"
          ? `${(module.viewOf ?? module).paths.show ?? module.paths.list}/${String(id)}`
          : SHOW_PATHS[display.to](String(id));
      return <Link to={to}>{text}</Link>;
    }
    case "text":
      return display.strong ? <Typography.Text strong>{text}</Typography.Text> : text;
    default:
      return text;
  }
}
