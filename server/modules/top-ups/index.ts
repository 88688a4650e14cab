import { eq, sql } from "drizzle-orm";

import { wholeAccountNumber } from "../../../src/shared/domain";
import type { RemarkBody } from "../../../src/shared/kit/module";
import {
  accountHolderAnswer,
  accountHolderQuery,
  topUps,
  type CounterTopUpBody,
} from "../../../src/shared/modules/top-ups";
import { errorResponses } from "../../../src/shared/schemas/common";
import { users, wallets, walletTransactions as ledger } from "../../db/schema";
import { notFound } from "../../errors";
import { searchKey } from "../../db/search-key";
import { adminNameOf, bindModule, type ActionContext } from "../../kit/bind";
import type { Tx } from "../../db";
import { reverseTopUp, topUpWallet, wholeReference } from "../../services/ledger";
import { emailReceiptAction, receiptEndpoints } from "./receipts";

/** A column of the row that reverses this top-up (none until it is reversed). */
const ofReversal = (column: "reference" | "remark") =>
  sql<string | null>`(select "reversal".${sql.identifier(column)} from ${ledger} as "reversal"
    where "reversal"."reverses_id" = ${ledger.id})`;

async function counterTopUp(
  tx: Tx,
  { actor, body }: { actor: { id: number }; body: CounterTopUpBody },
) {
  const row = await topUpWallet(
    tx,
    { accountNumber: body.accountNumber },
    {
      amountSen: body.amountSen,
      channel: "counter",
      remark: body.remark || null, // blank after trimming: no remark
      adminId: actor.id,
    },
  );
  return row.id;
}

async function reverse(tx: Tx, { actor, id, body, before }: ActionContext<RemarkBody>) {
  await reverseTopUp(
    tx,
    {
      id,
      userId: Number(before.userId),
      amountSen: Number(before.amountSen),
      reference: String(before.reference),
    },
    { adminId: actor.id, remark: body.remark },
  );
}

/**
 * Top-ups are the ledger's `top_up` rows, with the wallet's owner, the agent and the staff
 * member who took it at the counter, and the row that reversed it, if any.
 */
export const topUpsModule = bindModule(topUps, {
  table: ledger,
  // Every ledger row has its owner (user_id is a not-null foreign key).
  joins: [{ table: users, on: eq(users.id, ledger.userId), exactlyOne: true }],
  scope: eq(ledger.type, "top_up"),
  columns: {
    accountNumber: users.accountNumber,
    userName: users.name,
    agentName: sql<string | null>`(select "agent"."name" from ${users} as "agent"
      where "agent"."id" = ${ledger.agentUserId})`,
    adminName: adminNameOf(ledger.adminId),
    reversalReference: ofReversal("reference"),
    reversalRemark: ofReversal("remark"),
  },
  searchKey: searchKey(ledger.searchText),
  // References (TU + the day + 10 random characters) and account numbers (W + 9 digits).
  searchTail: 6,
  // A whole account number: its wallet's rows through the (user_id, created_at) index. A whole
  // top-up reference: that top-up through the reference's unique index (no other top-up's search
  // text can hold it; a reversal's, RV + the reference, is not a top-up).
  searchExact: (term) => {
    const number = wholeAccountNumber(term);
    if (number !== undefined) {
      return sql`${ledger.userId} = (select ${users.id} from ${users}
              where ${users.accountNumber} = ${number})`;
    }
    const reference = wholeReference("TU", term);
    return reference === undefined ? undefined : eq(ledger.reference, reference);
  },
  actions: {
    reverse,
    emailReceipt: emailReceiptAction("topUp"),
    emailReversalReceipt: emailReceiptAction("reversal"),
  },
  create: counterTopUp,
  endpoints: async (app, deps) => {
    const { db } = deps;
    await receiptEndpoints(app, deps);
    app.get(
      "/api/top-up-transactions/account-holder",
      {
        config: { thing: "Account Holder" },
        schema: {
          summary: "Whose wallet an account number names, before a counter top-up credits it",
          description:
            "The holder's name, role, approval and ban, the wallet's status and balance now. " +
            "404 when no wallet has the number. Changes nothing.",
          querystring: accountHolderQuery,
          response: { 200: accountHolderAnswer, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const [holder] = await db
          .select({
            accountNumber: users.accountNumber,
            name: users.name,
            role: users.role,
            approvalStatus: users.approvalStatus,
            isBanned: users.isBanned,
            walletStatus: wallets.status,
            balanceSen: wallets.balanceSen,
          })
          .from(users)
          .innerJoin(wallets, eq(wallets.userId, users.id))
          .where(eq(users.accountNumber, request.query.accountNumber));
        if (!holder) throw notFound("Account");
        return holder;
      },
    );
  },
});
