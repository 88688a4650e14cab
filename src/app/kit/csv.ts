import type { CrudFilter, CrudSort, MetaQuery } from "@refinedev/core";

import { looksLikeFormula } from "../../shared/csv";
import { LIST_PAGING } from "../../shared/kit/list";
import { dataProvider } from "../../providers/data";
import { saveBlob } from "../components/download";

/** Rows fetched per request (the aggregation contract's largest page). */
export const EXPORT_PAGE_SIZE = LIST_PAGING.maxPageSize;
/** At most this many rows are exported; the dialog says so before and after. */
export const EXPORT_MAX_ROWS = 10_000;

/**
 * One CSV cell: a value a spreadsheet would run as a formula (looksLikeFormula) gets a leading
 * apostrophe, and a value holding a comma, quote or line break is quoted with its quotes doubled
 * (RFC 4180).
 */
export function csvCell(value: string): string {
  const safe = looksLikeFormula(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string;
}

/** The CSV text, headers first, CRLF line ends, with a UTF-8 BOM so Excel reads Chinese. */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [
    columns.map((column) => csvCell(column.header)).join(","),
    ...rows.map((row) => columns.map((column) => csvCell(column.value(row))).join(",")),
  ];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** `<prefix>-YYYY-MM-DD.csv`, the local date. */
export function exportFileName(prefix: string, now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${prefix}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

export interface ExportProgress {
  done: number;
  total: number;
}

export interface FetchedRows<T> {
  rows: T[];
  /** How many rows match the filter (may exceed the rows fetched). */
  total: number;
  /** false when the server counted only up to `total` (more match). */
  totalExact: boolean;
  capped: boolean;
}

/**
 * Every row of a list's current filter and sort, 100 per request through the data provider's
 * getList, at most `max`. Reports progress after each page; stops when `signal` aborts.
 */
export async function fetchAllRows<T extends Record<string, unknown>>({
  resource,
  meta,
  filters,
  sorters,
  max = EXPORT_MAX_ROWS,
  onProgress,
  signal,
}: {
  resource: string;
  meta: MetaQuery;
  filters: CrudFilter[];
  sorters: CrudSort[];
  max?: number;
  onProgress?: (progress: ExportProgress) => void;
  signal?: AbortSignal;
}): Promise<FetchedRows<T>> {
  const rows: T[] = [];
  let total = 0;
  let totalExact = true;
  for (let currentPage = 1; ; currentPage += 1) {
    signal?.throwIfAborted();
    const page = await dataProvider.getList<T>({
      resource,
      filters,
      sorters,
      pagination: { currentPage, pageSize: EXPORT_PAGE_SIZE, mode: "server" },
      meta: { ...meta, signal },
    });
    const { data } = page;
    total = page.total;
    totalExact = page.totalExact !== false;
    rows.push(...data.slice(0, max - rows.length));
    // A total the server only counted up to says nothing of the end: measure against the cap.
    onProgress?.({ done: rows.length, total: totalExact ? Math.min(total, max) : max });
    const allFetched = totalExact && rows.length >= total;
    if (data.length < EXPORT_PAGE_SIZE || rows.length >= max || allFetched) break;
  }
  return { rows, total, totalExact, capped: !totalExact || total > rows.length };
}

/** Hands the browser a text file to save. */
export function downloadText(text: string, fileName: string, type = "text/csv;charset=utf-8") {
  saveBlob(new Blob([text], { type }), fileName);
}
