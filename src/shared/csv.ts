/**
 * The one CSV injection rule, shared by the console's export (which defuses such a cell) and the
 * UCSI ID import (which refuses one): OWASP's list of starts that make a spreadsheet read a cell
 * as a formula (=, +, -, @, a tab, a carriage return), also after blanks a spreadsheet trims
 * (" =1+1") and in full width (＝ ＋ － ＠, U+FF1D, U+FF0B, U+FF0D, U+FF20), which spreadsheets
 * take for the ASCII signs.
 */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;

/** Whether a spreadsheet would read `cell` as a formula. */
export const looksLikeFormula = (cell: string) => FORMULA_START.test(cell);
