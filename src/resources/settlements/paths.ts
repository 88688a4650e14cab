import { settlements } from "../../shared/modules/settlements";

/**
 * The invoice of a settlement: the shell page `?id=invoice`, whatever the path (the settlements'
 * list path, from the declaration).
 */
export const invoicePath = (id: number | string) =>
  `${settlements.paths.list}?id=invoice&settlement=${encodeURIComponent(String(id))}`;

/** The invoice's PDF on the API, in a language of the console. */
export const invoicePdfPath = (id: number | string, language: string) =>
  `/api/settlements/${encodeURIComponent(String(id))}/invoice.pdf?lang=${encodeURIComponent(language)}`;
