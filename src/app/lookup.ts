/**
 * The look-up by reference (`GET /api/lookup`), as the command palette and the dashboard's search
 * box use it: what a reference names and the detail page that opens it. Called through the data
 * provider outside Refine's hooks, so that "nothing has this reference" is the caller's to say in
 * place, never the central handler's "could not retrieve data" toast.
 */
import type { TFunction } from "i18next";

import { dataProvider } from "../providers/data";
import {
  LOOKUP_REFERENCE_MAX_LENGTH,
  type LookupAnswer,
  type LookupKind,
} from "../shared/modules/wallet-transactions";
import { moduleNamed, recordPath } from "./kit/links";

export { LOOKUP_REFERENCE_MAX_LENGTH };
export type { LookupAnswer };

export const LOOKUP_PATH = "/api/lookup";

/**
 * Whether typed text could be a whole reference (TU2026…, INV-202610-000123, RPT-000042): one
 * word of 8 characters or more, starting with a letter and holding a digit. The palette asks the
 * server only then; the dashboard's box asks whatever is typed.
 */
export function couldBeReference(text: string): boolean {
  const word = text.trim();
  return (
    word.length >= 8 &&
    word.length <= LOOKUP_REFERENCE_MAX_LENGTH &&
    /^[A-Za-z][A-Za-z0-9-]*$/.test(word) &&
    /\d/.test(word)
  );
}

/** What `reference` names and where it opens; rejects with the server's refusal (an ApiError). */
export async function lookUpReference(
  reference: string,
  signal?: AbortSignal,
): Promise<LookupAnswer> {
  const { data } = await dataProvider.custom!<LookupAnswer>({
    url: LOOKUP_PATH,
    method: "get",
    query: { reference },
    meta: { signal },
  });
  return data;
}

/** The detail page a found reference opens (undefined for a module this console does not know). */
export function lookupPath(answer: LookupAnswer): string | undefined {
  const module = moduleNamed(answer.module);
  return module ? recordPath(module, answer.id) : undefined;
}

/** "Open payment PY20261128AB12CD34EF": the command's words (common:lookup.*). */
export function lookupLabel(t: TFunction, answer: LookupAnswer): string {
  return t("common:lookup.open", {
    kind: t(`common:lookup.kinds.${answer.kind satisfies LookupKind}`),
    reference: answer.reference,
  });
}
