import type { CrudFilter } from "@refinedev/core";
import { DatePicker, Form, InputNumber, Input, Space, type FormProps } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useTranslation } from "react-i18next";

import { enumValuesOf, type FilterKind, type ModuleDecl } from "../../shared/kit/module";
import { LIST_SEARCH_MAX_LENGTH } from "../../shared/kit/paging";
import { FilterSelect } from "../components/filter-select";
import { SearchBox } from "../components/search-box";
import { RecordFilter } from "./record-filter";
import { fieldLabel, valueLabel } from "./texts";
import { DAY_FORMAT } from "../format";

/** Refine's free-text field; the data provider sends it as the contract's `$search`. */
export const SEARCH_FIELD = "q";
/** docs/backoffice.md: dates are typed, and sent to the API, as YYYY-MM-DD. */
/** "Any status" for a choice the list opens filtered by: an explicit `in`, so a reload keeps it. */
export const ALL = "all";
const YES_NO = ["yes", "no"] as const;
type YesNo = (typeof YES_NO)[number];

/**
 * The search form's values: the search text, and each filter under `f.<field>` (its own name,
 * so @refinedev/antd's copying of URL filters into same-named form fields cannot give a date
 * picker two strings or a select a boolean).
 */
export interface ListSearch {
  q?: string;
  f?: Record<string, unknown>;
}

export interface FilterControl {
  field: string;
  kind: FilterKind;
}

/** The filters a list draws a control for (FieldOptions.control). */
export function filterControls(module: ModuleDecl): FilterControl[] {
  return Object.entries(module.fields).flatMap(([field, decl]) => {
    if (!decl.filter || module.fixedFilters?.[field] !== undefined) return [];
    const drawn = decl.control ?? (decl.list && !(decl.filter === "text" && decl.search));
    return drawn ? [{ field, kind: decl.filter }] : [];
  });
}

/**
 * Money is typed in ringgit and rates as percentages (two decimals each), filtered in sen and
 * basis points; other numbers as they are.
 */
const unitOf = (module: ModuleDecl, field: string) => module.fields[field]?.display?.kind;
const scaleOf = (module: ModuleDecl, field: string) =>
  unitOf(module, field) === "money" || unitOf(module, field) === "basisPoints" ? 100 : 1;

const hasSearch = (module: ModuleDecl) => Object.values(module.fields).some((decl) => decl.search);
const opensFiltered = (module: ModuleDecl, field: string) =>
  module.initialFilters?.[field] !== undefined;

/** The filters the list always sends (a view of another module's list). */
export function fixedFiltersOf(module: ModuleDecl): CrudFilter[] {
  return Object.entries(module.fixedFilters ?? {}).map(([field, value]) => ({
    field,
    operator: "eq",
    value,
  }));
}

/** The filters the list opens with (a queue opens on its pending rows). */
export function initialFiltersOf(module: ModuleDecl): CrudFilter[] {
  return Object.entries(module.initialFilters ?? {}).map(([field, value]) => ({
    field,
    operator: "eq",
    value,
  }));
}

const dayOf = (day: Dayjs | undefined) => day?.format(DAY_FORMAT);

/** The search form's values as Refine filters; an emptied control removes its filter. */
export function filtersOf(module: ModuleDecl, values: ListSearch): CrudFilter[] {
  const filters: CrudFilter[] = [];
  if (hasSearch(module)) {
    filters.push({
      field: SEARCH_FIELD,
      operator: "contains",
      value: values.q?.trim() || undefined,
    });
  }
  for (const { field, kind } of filterControls(module)) {
    const value = values.f?.[field];
    switch (kind) {
      case "choice": {
        const all = value === ALL;
        filters.push({ field, operator: "eq", value: all ? undefined : value || undefined });
        if (opensFiltered(module, field)) {
          const every = enumValuesOf(module.fields[field]!.schema);
          filters.push({ field, operator: "in", value: all ? every : undefined });
        }
        break;
      }
      case "boolean":
        filters.push({
          field,
          operator: "eq",
          value: value === "yes" ? true : value === "no" ? false : undefined,
        });
        break;
      case "dateRange": {
        const [from, to] = (value as [Dayjs, Dayjs] | null | undefined) ?? [];
        filters.push({
          field,
          operator: "between",
          value: from && to ? [dayOf(from), dayOf(to)] : undefined,
        });
        break;
      }
      case "numberRange": {
        // Money is typed in ringgit and filtered in sen.
        const scale = scaleOf(module, field);
        const [min, max] = (value as [number | null, number | null] | undefined) ?? [];
        const sen = (typed: number | null | undefined) =>
          typed === null || typed === undefined ? undefined : Math.round(typed * scale);
        filters.push({ field, operator: "gte", value: sen(min) });
        filters.push({ field, operator: "lte", value: sen(max) });
        break;
      }
      case "text":
        filters.push({
          field,
          operator: "contains",
          value: String(value ?? "").trim() || undefined,
        });
        break;
      case "record":
        filters.push({
          field,
          operator: "eq",
          value: typeof value === "number" ? value : undefined,
        });
        break;
    }
  }
  return filters;
}

const valueOf = (filters: readonly CrudFilter[], field: string, operator: string): unknown =>
  filters.find(
    (filter) => "field" in filter && filter.field === field && filter.operator === operator,
  )?.value;

/** The form's values for the filters in force (from the URL, a dashboard link or a search). */
export function searchOf(module: ModuleDecl, filters: readonly CrudFilter[]): ListSearch {
  const f: Record<string, unknown> = {};
  for (const { field, kind } of filterControls(module)) {
    switch (kind) {
      case "choice": {
        const value = valueOf(filters, field, "eq");
        f[field] = value ?? (Array.isArray(valueOf(filters, field, "in")) ? ALL : undefined);
        break;
      }
      case "boolean": {
        const value = valueOf(filters, field, "eq");
        f[field] = value === true ? "yes" : value === false ? "no" : undefined;
        break;
      }
      case "dateRange": {
        const range = valueOf(filters, field, "between");
        const [from, to] = Array.isArray(range) ? range.map((day) => dayjs(String(day))) : [];
        f[field] = from?.isValid() && to?.isValid() ? [from, to] : null;
        break;
      }
      case "numberRange": {
        const scale = scaleOf(module, field);
        const typed = (bound: unknown) => (typeof bound === "number" ? bound / scale : null);
        const min = valueOf(filters, field, "gte");
        const max = valueOf(filters, field, "lte");
        f[field] = min === undefined && max === undefined ? undefined : [typed(min), typed(max)];
        break;
      }
      case "text":
        f[field] = valueOf(filters, field, "contains");
        break;
      case "record": {
        const value = valueOf(filters, field, "eq");
        f[field] = typeof value === "number" ? value : undefined;
        break;
      }
    }
  }
  return { q: valueOf(filters, SEARCH_FIELD, "contains") as string | undefined, f };
}

/** Whether the user narrowed the list beyond what it opens with (decides the empty state's words). */
export function isFiltered(module: ModuleDecl, search: ListSearch): boolean {
  if (search.q) return true;
  return Object.entries(search.f ?? {}).some(
    ([field, value]) =>
      value !== undefined && value !== null && value !== "" && !opensFiltered(module, field),
  );
}

/**
 * A query string has no types: with `syncWithLocation`, Refine reads a boolean or number filter
 * back from the URL as text ("true", "42"), which the contract rightly refuses for such a field.
 * Returns the filters with those values typed again by the declaration, or undefined when
 * nothing needed it.
 */
export function restoreFilterTypes(
  module: ModuleDecl,
  filters: readonly CrudFilter[],
): CrudFilter[] | undefined {
  let changed = false;
  const restore = (kind: FilterKind | undefined, value: unknown): unknown => {
    if (typeof value !== "string") {
      return Array.isArray(value) ? value.map((item) => restore(kind, item)) : value;
    }
    if (kind === "boolean" && (value === "true" || value === "false")) {
      changed = true;
      return value === "true";
    }
    const numeric = kind === "numberRange" || kind === "record";
    if (numeric && value.trim() !== "" && Number.isFinite(Number(value))) {
      changed = true;
      return Number(value);
    }
    return value;
  };
  const restored = filters.map((filter) => {
    if (!("field" in filter)) return filter;
    const kind = module.fields[filter.field]?.filter;
    return { ...filter, value: restore(kind, filter.value) };
  });
  return changed ? restored : undefined;
}

/** Search box and filters above a generated list; every change applies at once. */
export function ModuleFilters({
  module,
  formProps,
  initialValues,
}: {
  module: ModuleDecl;
  formProps: FormProps<ListSearch>;
  initialValues: ListSearch;
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  // A module may word one filter its own way (`filters.<field>.<key>`), else the kit's pattern.
  const filterText = (field: string, key: string, options: Record<string, unknown> = {}) =>
    String(
      t(
        [
          `${module.i18n}:filters.${field}.${key}`,
          `${module.i18n}:filter.${key}`,
          `kit:filter.${key}`,
        ],
        options,
      ),
    );
  const submit = () => formProps.form?.submit();
  const controls = filterControls(module);
  if (!hasSearch(module) && controls.length === 0) return null;
  return (
    <Form<ListSearch>
      {...formProps}
      layout="inline"
      role="search"
      initialValues={initialValues}
      style={{ marginBottom: 16, rowGap: 12 }}
    >
      {hasSearch(module) && <SearchBox namespace={module.i18n} onSearch={submit} />}
      {controls.map(({ field, kind }) => {
        const label = fieldLabel(t, module, field);
        const name = ["f", field];
        switch (kind) {
          case "choice": {
            const values = enumValuesOf(module.fields[field]!.schema) ?? [];
            const required = opensFiltered(module, field);
            return (
              <FilterSelect<string>
                key={field}
                name={name}
                label={filterText(field, "label", { field: label })}
                placeholder={required ? undefined : filterText(field, "any", { field: label })}
                values={required ? [...values, ALL] : values}
                labelOf={(value) =>
                  value === ALL ? filterText(field, "all") : valueLabel(t, module, field, value)
                }
                onChange={submit}
                width={170}
              />
            );
          }
          case "boolean":
            return (
              <FilterSelect<YesNo>
                key={field}
                name={name}
                label={filterText(field, "label", { field: label })}
                placeholder={filterText(field, "any", { field: label })}
                values={YES_NO}
                labelOf={(value) =>
                  String(t([`${module.i18n}:filters.${field}.${value}`, `kit:${value}`]))
                }
                onChange={submit}
                width={160}
              />
            );
          case "dateRange":
            return (
              <Form.Item key={field} name={name} noStyle>
                <DatePicker.RangePicker
                  format={DAY_FORMAT}
                  placeholder={[filterText(field, "from"), filterText(field, "to")]}
                  aria-label={filterText(field, "label", { field: label })}
                  onChange={submit}
                  style={{ marginInlineEnd: 12 }}
                />
              </Form.Item>
            );
          case "numberRange":
            return (
              <Space.Compact key={field} style={{ marginInlineEnd: 12 }}>
                {(["min", "max"] as const).map((end, index) => (
                  <Form.Item key={end} name={[...name, index]} noStyle>
                    <InputNumber
                      prefix={unitOf(module, field) === "money" ? "RM" : undefined}
                      suffix={unitOf(module, field) === "basisPoints" ? "%" : undefined}
                      precision={scaleOf(module, field) === 100 ? 2 : undefined}
                      placeholder={filterText(field, end, { field: label })}
                      aria-label={filterText(field, end, { field: label })}
                      onPressEnter={submit}
                      onBlur={submit}
                      style={{ width: 130 }}
                    />
                  </Form.Item>
                ))}
              </Space.Compact>
            );
          case "record":
            return (
              <RecordFilter
                key={field}
                name={name}
                url={`/api/${module.collection}/options/${field}`}
                label={filterText(field, "label", { field: label })}
                placeholder={filterText(field, "any", { field: label })}
                notFound={filterText(field, "noRecord", { field: label })}
                failed={filterText(field, "recordsFailed")}
                onChange={submit}
              />
            );
          case "text":
            return (
              <Form.Item key={field} name={name} noStyle>
                <Input
                  placeholder={label}
                  aria-label={filterText(field, "label", { field: label })}
                  onPressEnter={submit}
                  allowClear
                  maxLength={LIST_SEARCH_MAX_LENGTH}
                  style={{ width: 180, marginInlineEnd: 12 }}
                />
              </Form.Item>
            );
        }
      })}
    </Form>
  );
}
