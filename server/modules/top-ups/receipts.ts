import { z } from "zod";

import { receiptQuery, type ReceiptSentAnswer } from "../../../src/shared/modules/top-ups";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { businessTimeZone } from "../../business-day";
import { documentLanguage } from "../../documents/words";
import { conflict } from "../../errors";
import type { Language } from "../../http/language";
import type { ActionBinding, ModuleEndpoints } from "../../kit/bind";
import {
  renderReceiptEmail,
  sendReceipt,
  type ReceiptKind,
  type TopUpReceipt,
} from "../../mail/receipt-email";
import { contentDisposition } from "../../uploads/http";
import { loadReceipt } from "./receipt";
import { receiptPdf } from "./receipt-pdf";

/**
 * The holder's language for their e-mail. Wallet users store no language today (only
 * administrators do), so every holder reads English, the product's default; a stored language
 * would be read here.
 */
const holderLanguage = (): Language => "en-US";

/** Which ledger row each receipt route receipts, and how its routes are named. */
const RECEIPTS: Array<{ kind: ReceiptKind; path: string; thing: string; summary: string }> = [
  {
    kind: "topUp",
    path: "receipt.pdf",
    thing: "Top Up Receipt",
    summary: "A counter top-up's receipt as an A5 PDF",
  },
  {
    kind: "reversal",
    path: "reversal-receipt.pdf",
    thing: "Top Up Reversal Receipt",
    summary: "The receipt of a top-up's reversal as an A5 PDF",
  },
];

/**
 * `GET /api/top-up-transactions/{id}/receipt.pdf` and `…/reversal-receipt.pdf`, under Top Up
 * Transaction (33) like the module's own routes.
 */
export const receiptEndpoints: ModuleEndpoints = async (app, { db, config }) => {
  for (const { kind, path, thing, summary } of RECEIPTS) {
    app.get(
      `/api/top-up-transactions/:id/${path}`,
      {
        config: { thing },
        schema: {
          summary,
          description:
            "Its number (RC- and the ledger row's reference: the same on every copy), the date " +
            "and time in BUSINESS_TIMEZONE, the account holder, the amount, the staff member " +
            "(and the approver under four eyes), the wallet's balance after it. A top-up since " +
            "reversed is marked so with the reversal's receipt number. In `lang`, else the " +
            "administrator's language. 409 NO_RECEIPT for a top-up that is not a counter top-up " +
            "(or, for the reversal's, one never reversed). Changes nothing.",
          params: idParamsSchema,
          querystring: receiptQuery,
          response: {
            200: z.any().describe("The receipt, as application/pdf"),
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) => {
        const receipt = await loadReceipt(db, request.params.id, kind);
        const pdf = await receiptPdf({
          receipt,
          language: documentLanguage(request, request.query.lang),
          timeZone: businessTimeZone(),
          font: config.invoiceFont,
        });
        return reply
          .type("application/pdf")
          .header("content-disposition", contentDisposition(`${receipt.number}.pdf`))
          .header("cache-control", "private, no-store")
          .send(pdf);
      },
    );
  }
};

interface ReceiptToSend {
  receipt: TopUpReceipt & { holder: { email: string } };
  language: Language;
}

/**
 * The e-mail receipt actions (declared `effectAction`s): in the kit's transaction the receipt is
 * read and refused without the holder's address (409 HOLDER_NO_EMAIL), the audit entry keeps its
 * number, address and language; once committed it is e-mailed (502 MAIL_FAILED when it could
 * not be).
 */
export function emailReceiptAction(kind: ReceiptKind): ActionBinding<unknown, ReceiptToSend> {
  return {
    run: async (tx, { id }) => {
      const receipt = await loadReceipt(tx, id, kind);
      const email = receipt.holder.email?.trim();
      if (!email) {
        throw conflict("HOLDER_NO_EMAIL", "The account holder has no e-mail address");
      }
      return {
        receipt: { ...receipt, holder: { ...receipt.holder, email } },
        language: holderLanguage(),
      };
    },
    audit: ({ receipt, language }) => ({
      after: { receiptNumber: receipt.number, email: receipt.holder.email, language },
    }),
    after: async ({ receipt, language }, { mailer, log }): Promise<ReceiptSentAnswer> => {
      await sendReceipt(mailer, log, renderReceiptEmail(receipt, language, businessTimeZone()));
      return { receiptNumber: receipt.number, email: receipt.holder.email, language };
    },
  };
}
