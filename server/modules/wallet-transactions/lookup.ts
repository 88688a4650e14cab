/**
 * The look-up by reference (`GET /api/lookup?reference=…`): what a reference names and which
 * detail page opens it. Exact match only, any case, spaces around ignored: a ledger row (TU, PY,
 * PK, RF, RV…, AJ…) through the reference's unique index, a settlement by its invoice number
 * (INV-YYYYMM-NNNNNN) and a user report by its reference (RPT-NNNNNN) through their primary keys.
 * The text is never a pattern: `%` and `_` are characters like any other.
 *
 * Any signed-in administrator may ask; a record they may not open (its module's code missing)
 * answers the same 404 REFERENCE_NOT_FOUND as no record at all, so the answer tells nobody that
 * a reference exists outside their codes.
 */
import { and, eq } from "drizzle-orm";

import { errorResponses } from "../../../src/shared/schemas/common";
import { settlements as settlementsDecl } from "../../../src/shared/modules/settlements";
import { topUps } from "../../../src/shared/modules/top-ups";
import { userReports as userReportsDecl } from "../../../src/shared/modules/user-reports";
import {
  LOOKUP_REFERENCE_MAX_LENGTH,
  lookupAnswer,
  lookupQuery,
  walletTransactions as walletTransactionsDecl,
  type LookupAnswer,
} from "../../../src/shared/modules/wallet-transactions";
import { holdsPermission } from "../../../src/shared/permissions";
import { textProblem } from "../../../src/shared/text";
import { currentAdmin } from "../../auth/access";
import type { DbOrTx } from "../../db";
import {
  settlements,
  userReports,
  walletTransactions as ledger,
  type AdministratorRow,
} from "../../db/schema";
import { HttpError } from "../../errors";
import type { ModuleEndpoints } from "../../kit/bind";
import { invoiceNumberOf, reportReferenceOf } from "../../services/record-numbers";

const INVOICE = /^INV-\d{6}-(\d{6})$/;
const REPORT = /^RPT-(\d{6})$/;

/** 400 REFERENCE_INVALID: blank, too long, or holding control or invisible characters. */
const invalid = (reason: "blank" | "tooLong" | "characters", message: string) =>
  new HttpError(400, message, "REFERENCE_INVALID", { reason, max: LOOKUP_REFERENCE_MAX_LENGTH });

const nothingFound = () =>
  new HttpError(404, "No record you may open has this reference", "REFERENCE_NOT_FOUND");

/** The reference as the records hold it (trimmed, upper case), or the refusal of the text. */
export function referenceOf(raw: string): string {
  const text = raw.trim();
  if (text === "") throw invalid("blank", "Type a reference");
  if (text.length > LOOKUP_REFERENCE_MAX_LENGTH) {
    throw invalid("tooLong", `A reference has at most ${LOOKUP_REFERENCE_MAX_LENGTH} characters`);
  }
  const problem = textProblem(text);
  if (problem) throw invalid("characters", `The reference ${problem}`);
  return text.toUpperCase();
}

/** What `reference` names, opened where `admin` may open it; undefined for nothing they may open. */
export async function lookUp(
  db: DbOrTx,
  admin: AdministratorRow,
  reference: string,
): Promise<LookupAnswer | undefined> {
  const may = (code: number | null) => holdsPermission(admin, code);
  const invoice = INVOICE.exec(reference);
  if (invoice) {
    if (!may(settlementsDecl.permission)) return undefined;
    const [row] = await db
      .select({ id: settlements.id })
      .from(settlements)
      .where(
        and(eq(settlements.id, Number(invoice[1])), eq(invoiceNumberOf(settlements), reference)),
      );
    return row && { kind: "settlement", module: settlementsDecl.name, id: row.id, reference };
  }
  const report = REPORT.exec(reference);
  if (report) {
    if (!may(userReportsDecl.permission)) return undefined;
    const [row] = await db
      .select({ id: userReports.id })
      .from(userReports)
      .where(
        and(eq(userReports.id, Number(report[1])), eq(reportReferenceOf(userReports), reference)),
      );
    return row && { kind: "user_report", module: userReportsDecl.name, id: row.id, reference };
  }
  // Every other reference is a ledger row's, or nothing: one probe of the unique index.
  const [row] = await db
    .select({ id: ledger.id, type: ledger.type })
    .from(ledger)
    .where(eq(ledger.reference, reference));
  if (!row) return undefined;
  // A top-up opens on its own page (33) with its receipts; without that code, as any ledger row.
  const module =
    row.type === "top_up" && may(topUps.permission)
      ? topUps.name
      : may(walletTransactionsDecl.permission)
        ? walletTransactionsDecl.name
        : undefined;
  return module === undefined ? undefined : { kind: row.type, module, id: row.id, reference };
}

export const lookupEndpoints: ModuleEndpoints = async (app, { db }) => {
  app.get(
    "/api/lookup",
    {
      // Any administrator: what each may open is decided per record (lookUp).
      config: { access: "session", thing: "Look-up" },
      schema: {
        tags: ["lookup"],
        summary: "What a reference names, and the detail page that opens it",
        description:
          "Exact match, any case, spaces around ignored: a ledger row's reference (TU…, PY…, " +
          "PK…, RF…, RV…, AJ…), an invoice number (INV-YYYYMM-NNNNNN) or a user report's " +
          "reference (RPT-NNNNNN); never a pattern. 404 REFERENCE_NOT_FOUND when nothing has it " +
          "or the caller lacks the code of the module that shows it (the same answer); 400 " +
          "REFERENCE_INVALID when blank, longer than 64 characters or holding control or " +
          "invisible characters. Changes nothing.",
        querystring: lookupQuery,
        response: { 200: lookupAnswer, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const reference = referenceOf(request.query.reference);
      const found = await lookUp(db, currentAdmin(request), reference);
      if (!found) throw nothingFound();
      return found;
    },
  );
};
