/**
 * A wallet's statement: its ledger rows as the users' related list (`GET /api/users/{id}/statement`,
 * the kit's aggregation contract), and a period of it as a printable PDF
 * (`GET /api/users/{id}/statement.pdf`), both under User (0).
 */
import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import { z } from "zod";

import {
  STATEMENT_MAX_DAYS,
  statementQuery,
  type StatementQuery,
} from "../../../src/shared/modules/wallet-statement";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { addDays, businessDayStart, businessTimeZone } from "../../business-day";
import type { DbOrTx } from "../../db";
import { documentLanguage } from "../../documents/words";
import { businesses, users, walletTransactions as ledger } from "../../db/schema";
import { HttpError, notFound } from "../../errors";
import { checkPeriod } from "../../http/period";
import type { ModuleEndpoints, RelatedBinding } from "../../kit/bind";
import { contentDisposition } from "../../uploads/http";
import { statementPdf, type Statement } from "./statement-pdf";

/** The business of a payment or refund (none for other rows). */
const businessName = sql<string | null>`(select ${businesses.name} from ${businesses}
  where ${businesses.id} = ${ledger.businessId})`;

/** The rows of one wallet, the business of a payment or refund named beside them. */
export const statementRows: RelatedBinding = {
  table: ledger,
  columns: {
    businessName,
    sizeSen: sql<number>`abs(${ledger.amountSen})`.mapWith(Number),
  },
  parent: ledger.userId,
};

/**
 * The most rows one printed statement holds. A year of a busy wallet (a few payments a day) is a
 * thousand or two; beyond this the period is refused, never cut short silently.
 */
export const STATEMENT_MAX_ROWS = 5_000;

/** The period's checks beyond its shape: 400 with a stable code each. */
const checkStatementPeriod = (period: StatementQuery) =>
  checkPeriod(period, {
    maxDays: STATEMENT_MAX_DAYS,
    code: "STATEMENT_PERIOD_TOO_LONG",
    what: "A statement",
  });

/**
 * One wallet's rows from the start of business day `from` to the end of `to`, oldest first, and
 * the balance before them (the balance after the wallet's last row before the period, 0 when it
 * has none). New rows are dated now, never before the period, so the opening balance needs no
 * snapshot shared with the rows.
 */
export async function loadStatement(
  db: DbOrTx,
  userId: number,
  { from, to }: StatementQuery,
): Promise<Omit<Statement, "from" | "to">> {
  const zone = businessTimeZone();
  const start = businessDayStart(from, zone);
  const end = businessDayStart(addDays(to, 1), zone);
  const [holder] = await db
    .select({ name: users.name, accountNumber: users.accountNumber })
    .from(users)
    .where(eq(users.id, userId));
  if (!holder) throw notFound("User");
  const [before] = await db
    .select({ balanceAfterSen: ledger.balanceAfterSen })
    .from(ledger)
    .where(and(eq(ledger.userId, userId), lt(ledger.createdAt, start)))
    .orderBy(desc(ledger.createdAt), desc(ledger.id))
    .limit(1);
  const rows = await db
    .select({
      createdAt: ledger.createdAt,
      reference: ledger.reference,
      type: ledger.type,
      channel: ledger.channel,
      status: ledger.status,
      businessName,
      amountSen: ledger.amountSen,
      balanceAfterSen: ledger.balanceAfterSen,
    })
    .from(ledger)
    .where(and(eq(ledger.userId, userId), gte(ledger.createdAt, start), lt(ledger.createdAt, end)))
    .orderBy(asc(ledger.createdAt), asc(ledger.id))
    .limit(STATEMENT_MAX_ROWS + 1);
  if (rows.length > STATEMENT_MAX_ROWS) {
    throw new HttpError(
      400,
      `Invalid to: The period holds more than ${STATEMENT_MAX_ROWS} rows; choose a shorter one`,
      "STATEMENT_TOO_MANY_ROWS",
      { maxRows: STATEMENT_MAX_ROWS },
    );
  }
  return { holder, openingSen: before?.balanceAfterSen ?? 0, rows };
}

/** `GET /api/users/{id}/statement.pdf?from&to&lang`: a period of the wallet's statement. */
export const statementEndpoints: ModuleEndpoints = async (app, { db, config }) => {
  app.get(
    "/api/users/:id/statement.pdf",
    {
      config: { thing: "Wallet Statement" },
      schema: {
        summary: "A period of a wallet's statement as an A4 PDF",
        description:
          "The wallet's rows from the start of business day `from` to the end of `to` " +
          "(BUSINESS_TIMEZONE), oldest first, each with the balance after it, between the " +
          "opening and closing balances and the period's money in and out. In `lang`, else the " +
          `administrator's language. 400 RANGE_REVERSED (to before from), ` +
          `STATEMENT_PERIOD_TOO_LONG (more than ${STATEMENT_MAX_DAYS} days), ` +
          `STATEMENT_TOO_MANY_ROWS (more than ${STATEMENT_MAX_ROWS} rows). Changes nothing.`,
        params: idParamsSchema,
        querystring: statementQuery,
        response: {
          200: z.any().describe("The statement, as application/pdf"),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      checkStatementPeriod(request.query);
      const { from, to } = request.query;
      const statement = await loadStatement(db, request.params.id, request.query);
      const pdf = await statementPdf({
        statement: { ...statement, from, to },
        language: documentLanguage(request, request.query.lang),
        timeZone: businessTimeZone(),
        font: config.invoiceFont,
      });
      return reply
        .type("application/pdf")
        .header(
          "content-disposition",
          contentDisposition(`statement-${statement.holder.accountNumber}-${from}-${to}.pdf`),
        )
        .header("cache-control", "private, no-store")
        .send(pdf);
    },
  );
};
