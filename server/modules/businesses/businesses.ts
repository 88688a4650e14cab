import { eq, sql } from "drizzle-orm";

import type { DecisionBody, RemarkBody } from "../../../src/shared/kit/module";
import { businessApproval, businesses } from "../../../src/shared/modules/businesses";
import type { Tx } from "../../db";
import { businesses as table, users, walletTransactions } from "../../db/schema";
import { adminNameOf, bindModule, type ActionContext } from "../../kit/bind";
import { maskedAccount } from "../../services/bank-accounts";
import { businessEndpoints } from "./endpoints";

const columns = {
  ownerName: users.name,
  ownerAccountNumber: users.accountNumber,
  bankAccount: maskedAccount(table.bankAccount),
  reviewerName: adminNameOf(table.reviewerId),
};
const joins = [{ table: users, on: eq(users.id, table.ownerUserId) }];

/** A state change by staff: the new status, the remark, who and when. */
const setStatus =
  (status: "approved" | "rejected" | "suspended") =>
  async (tx: Tx, { actor, id, body }: ActionContext<RemarkBody>) => {
    await tx
      .update(table)
      .set({ status, remark: body.remark, reviewerId: actor.id, reviewedAt: new Date() })
      .where(eq(table.id, id));
  };

async function decide(tx: Tx, context: ActionContext<DecisionBody>) {
  await setStatus(context.body.action === "approve" ? "approved" : "rejected")(tx, context);
}

/** A business's payments: ledger rows of type payment, the payer joined, the debit as paid. */
const payments = {
  table: walletTransactions,
  joins: [{ table: users, on: eq(users.id, walletTransactions.userId) }],
  columns: {
    payerId: walletTransactions.userId,
    payerName: users.name,
    payerAccountNumber: users.accountNumber,
    amountSen: sql<number>`-${walletTransactions.amountSen}`.mapWith(Number),
  },
  parent: walletTransactions.businessId,
  scope: eq(walletTransactions.type, "payment"),
};

/** The business list and detail: each with its owner (name, account number) joined. */
export const businessesModule = bindModule(businesses, {
  table,
  joins,
  columns,
  related: { payments },
  endpoints: businessEndpoints,
  actions: { suspend: setStatus("suspended"), reinstate: setStatus("approved") },
  edit: async (tx, { id, body }) => {
    await tx.update(table).set({ feeRateBp: body.feeRateBp }).where(eq(table.id, id));
  },
});

/** Business > Approval: the decision on a pending business (its list is the businesses list). */
export const businessApprovalModule = bindModule(businessApproval, {
  table,
  joins,
  columns,
  show: false,
  actions: { decide },
});
