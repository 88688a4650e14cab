import { useEffect, useState } from "react";

/** The list keys, in the order the help overlay names them. */
export const LIST_KEYS = {
  next: "j",
  previous: "k",
  open: "Enter",
  approve: "a",
  reject: "r",
} as const;

/**
 * Whether a key press belongs to something else: a field being typed in, a menu or dialog that
 * is open, or a chord with Ctrl / ⌘ / Alt (the browser's and the palette's).
 */
export function isForSomethingElse(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return true;
  const target = event.target as HTMLElement | null;
  if (target?.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']")) {
    return true;
  }
  if (target?.closest("[role='dialog'], [role='menu'], [role='listbox']")) return true;
  return document.querySelector(".ant-modal-wrap:not([style*='display: none'])") !== null;
}

interface ListShortcuts<Row> {
  rows: readonly Row[];
  /** Open the row's detail page (none: Enter does nothing). */
  onOpen?: (row: Row) => void;
  /** Ask for the row's decision with this verb (the dialog asks for the remark). */
  onDecide?: (row: Row, verb: "approve" | "reject") => void;
}

/**
 * A list's keyboard: j / k move to the next / previous row, Enter opens it, a approves it and r
 * rejects it (with the decision dialog, and its remark, as a click would). The current row is
 * focused, so a screen reader reads it; a new page of rows starts again from none.
 */
export function useListShortcuts<Row>({ rows, onOpen, onDecide }: ListShortcuts<Row>) {
  const [active, setActive] = useState<number>();
  const [shown, setShown] = useState(rows);
  // A new page of rows (not merely another empty array while one loads) starts again.
  if (shown !== rows && (shown.length > 0 || rows.length > 0)) {
    setShown(rows);
    setActive(undefined);
  }

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isForSomethingElse(event) || rows.length === 0) return;
      const current = active === undefined ? undefined : rows[active];
      switch (event.key) {
        case LIST_KEYS.next:
          setActive(active === undefined ? 0 : Math.min(active + 1, rows.length - 1));
          break;
        case LIST_KEYS.previous:
          setActive(active === undefined ? 0 : Math.max(active - 1, 0));
          break;
        case LIST_KEYS.open:
          // Enter on a focused button or link is that control's own.
          if (!current || !onOpen || (event.target as HTMLElement).closest("a, button")) return;
          onOpen(current);
          break;
        case LIST_KEYS.approve:
        case LIST_KEYS.reject:
          if (!current || !onDecide) return;
          onDecide(current, event.key === LIST_KEYS.approve ? "approve" : "reject");
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [rows, active, onOpen, onDecide]);

  // The current row takes the focus: visible (the table's focus ring) and announced.
  useEffect(() => {
    if (active === undefined) return;
    const row = document.querySelectorAll<HTMLElement>(".ant-table-tbody .ant-table-row")[active];
    if (!row) return;
    row.tabIndex = -1;
    row.focus({ preventScroll: false });
    row.scrollIntoView({ block: "nearest" });
  }, [active]);

  return active;
}
