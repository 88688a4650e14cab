import { SettingOutlined } from "@ant-design/icons";
import { Button, Checkbox, Flex, InputNumber, Popover, Typography } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";

import type { ModuleDecl } from "../../shared/kit/module";
import { SAVED_VIEW_LIMITS } from "../../shared/saved-views";
import { fieldLabel } from "./texts";

/** Which listed columns a list shows, in order (absent: all), and their widths in px. */
export interface ColumnState {
  columns?: string[];
  widths?: Record<string, number>;
}

const storageKey = (module: string) => `list-columns:${module}`;
const listedOf = (module: ModuleDecl) =>
  Object.entries(module.fields)
    .filter(([, decl]) => decl.list)
    .map(([field]) => field);

/** A stored column state, kept to the list's columns and the width bounds. */
function cleaned(module: ModuleDecl, state: ColumnState): ColumnState {
  const listed = new Set(listedOf(module));
  const { widthMin, widthMax } = SAVED_VIEW_LIMITS;
  const widths = Object.fromEntries(
    Object.entries(state.widths ?? {}).filter(
      ([field, width]) =>
        listed.has(field) && Number.isInteger(width) && width >= widthMin && width <= widthMax,
    ),
  );
  return {
    ...(Array.isArray(state.columns)
      ? { columns: state.columns.filter((field) => listed.has(field)) }
      : {}),
    ...(Object.keys(widths).length > 0 ? { widths } : {}),
  };
}

function readStored(module: ModuleDecl): ColumnState {
  try {
    const raw = window.localStorage.getItem(storageKey(module.name));
    return raw ? cleaned(module, JSON.parse(raw) as ColumnState) : {};
  } catch {
    return {};
  }
}

/**
 * A list's column choice and widths: part of the list's state (kept in this browser across
 * reloads, and in a saved view).
 */
export function useColumnState(module: ModuleDecl) {
  const [state, setState] = useState<ColumnState>(() => readStored(module));
  const change = useCallback(
    (next: ColumnState) => {
      const kept = cleaned(module, next);
      setState(kept);
      try {
        window.localStorage.setItem(storageKey(module.name), JSON.stringify(kept));
      } catch {
        // A browser that keeps nothing still shows the columns chosen until the page is left.
      }
    },
    [module],
  );
  return [state, change] as const;
}

/** The listed fields in the order and choice of `state` (all of them when it chooses none). */
export function shownColumns(module: ModuleDecl, state: ColumnState): string[] {
  const listed = listedOf(module);
  return state.columns ? state.columns.filter((field) => listed.includes(field)) : listed;
}

/** The list's "Columns" control: show or hide each column and set its width. */
export function ColumnSettings({
  module,
  state,
  onChange,
}: {
  module: ModuleDecl;
  state: ColumnState;
  onChange: (next: ColumnState) => void;
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const listed = listedOf(module);
  const shown = new Set(shownColumns(module, state));
  const declaredWidth = (field: string) => {
    const list = module.fields[field]?.list;
    return typeof list === "object" ? list.width : undefined;
  };
  const toggle = (field: string, on: boolean) => {
    const columns = listed.filter((name) => (name === field ? on : shown.has(name)));
    // At least one column stays: a table of nothing says nothing.
    if (columns.length === 0) return;
    onChange({ ...state, columns: columns.length === listed.length ? undefined : columns });
  };
  const setWidth = (field: string, width: number | null) => {
    const widths = { ...state.widths };
    if (width === null) delete widths[field];
    else widths[field] = width;
    onChange({ ...state, widths });
  };
  const content = (
    <Flex vertical gap={8} style={{ maxWidth: 320 }}>
      <Typography.Text type="secondary">{t("kit:columns.help")}</Typography.Text>
      {listed.map((field) => {
        const label = fieldLabel(t, module, field);
        return (
          <Flex key={field} gap={8} align="center" justify="space-between">
            <Checkbox
              checked={shown.has(field)}
              onChange={(event) => toggle(field, event.target.checked)}
            >
              {label}
            </Checkbox>
            <InputNumber<number>
              size="small"
              min={SAVED_VIEW_LIMITS.widthMin}
              max={SAVED_VIEW_LIMITS.widthMax}
              step={10}
              precision={0}
              value={state.widths?.[field] ?? null}
              placeholder={String(declaredWidth(field) ?? t("kit:columns.auto"))}
              aria-label={t("kit:columns.width", { column: label })}
              onChange={(width) => setWidth(field, width)}
              suffix="px"
              style={{ width: 100 }}
            />
          </Flex>
        );
      })}
      <Button size="small" onClick={() => onChange({})} disabled={!state.columns && !state.widths}>
        {t("kit:columns.reset")}
      </Button>
    </Flex>
  );
  return (
    <Popover
      content={content}
      title={t("kit:columns.title")}
      trigger="click"
      placement="bottomRight"
    >
      <Button icon={<SettingOutlined aria-hidden />}>{t("kit:columns.button")}</Button>
    </Popover>
  );
}
