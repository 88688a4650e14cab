import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { receiptNumberOf, topUps } from "../../../src/shared/modules/top-ups";
import type { DbOrTx } from "../../db";
import {
  administrators,
  changeRequests,
  users,
  walletTransactions as ledger,
} from "../../db/schema";
import { conflict, notFound } from "../../errors";
import { adminNameOf } from "../../kit/bind";
import type { ReceiptKind, TopUpReceipt } from "../../mail/receipt-email";

const reversals = alias(ledger, "reversal");

/**
 * Who approved a change of the top-up held for a second approver (four eyes): the checker of the
 * approved request that made it (`create`) or reversed it (`reverse`); none when it was applied
 * at once.
 */
const approverOf = (action: "create" | "reverse", topUpId: typeof ledger.id) =>
  sql<string | null>`(select ${administrators.name} from ${administrators}
    where ${administrators.id} = (select ${changeRequests.checkerId} from ${changeRequests}
      where ${changeRequests.module} = ${topUps.name} and ${changeRequests.action} = ${action}
        and ${changeRequests.status} = 'approved'
        and ${action === "create" ? changeRequests.resultId : changeRequests.recordId} = ${topUpId}
      order by ${changeRequests.id} desc limit 1))`;

const noReceipt = (message: string) => conflict("NO_RECEIPT", message);

/**
 * The facts of a top-up's receipt (`topUp`) or of its reversal's (`reversal`), as the ledger rows
 * wrote them: 404 for an id that is no top-up, 409 NO_RECEIPT for a top-up that is not a counter
 * top-up applied to the wallet, or, for a reversal receipt, one never reversed.
 */
export async function loadReceipt(
  db: DbOrTx,
  id: number,
  kind: ReceiptKind,
): Promise<TopUpReceipt> {
  const [row] = await db
    .select({
      reference: ledger.reference,
      channel: ledger.channel,
      status: ledger.status,
      amountSen: ledger.amountSen,
      balanceAfterSen: ledger.balanceAfterSen,
      remark: ledger.remark,
      at: ledger.createdAt,
      keyedBy: adminNameOf(ledger.adminId),
      approvedBy: approverOf("create", ledger.id),
      holderName: users.name,
      accountNumber: users.accountNumber,
      email: users.email,
      reversal: {
        reference: reversals.reference,
        amountSen: reversals.amountSen,
        balanceAfterSen: reversals.balanceAfterSen,
        remark: reversals.remark,
        at: reversals.createdAt,
        keyedBy: adminNameOf(reversals.adminId),
        approvedBy: approverOf("reverse", ledger.id),
      },
    })
    .from(ledger)
    .innerJoin(users, eq(users.id, ledger.userId))
    .leftJoin(reversals, and(eq(reversals.reversesId, ledger.id), eq(reversals.type, "reversal")))
    .where(and(eq(ledger.id, id), eq(ledger.type, "top_up")));
  if (!row) throw notFound("Top Up Transaction");
  const holder = { name: row.holderName, accountNumber: row.accountNumber, email: row.email };
  const topUpNumber = receiptNumberOf(row.reference);
  const reversal = row.reversal?.reference ? row.reversal : undefined;

  if (kind === "reversal") {
    if (!reversal) throw noReceipt("This top-up was not reversed: there is no reversal receipt");
    return {
      kind,
      number: receiptNumberOf(reversal.reference),
      reference: reversal.reference,
      at: reversal.at,
      holder,
      amountSen: reversal.amountSen,
      balanceAfterSen: reversal.balanceAfterSen,
      keyedBy: reversal.keyedBy,
      approvedBy: reversal.approvedBy,
      remark: reversal.remark,
      reverses: topUpNumber,
      reversedBy: null,
    };
  }
  if (row.channel !== "counter") {
    throw noReceipt("Only a counter top-up has a receipt");
  }
  // A counter top-up is credited when it is made; any other state was never applied.
  if (row.status !== "success" && row.status !== "reversed") {
    throw noReceipt("This top-up was not applied to the wallet: it has no receipt");
  }
  return {
    kind,
    number: topUpNumber,
    reference: row.reference,
    at: row.at,
    holder,
    amountSen: row.amountSen,
    balanceAfterSen: row.balanceAfterSen,
    keyedBy: row.keyedBy,
    approvedBy: row.approvedBy,
    remark: row.remark,
    reverses: null,
    reversedBy: reversal ? receiptNumberOf(reversal.reference) : null,
  };
}
