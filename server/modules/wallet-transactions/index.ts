/**
 * Wallet Transaction (docs/modules.md): the detail page of any ledger row, read only, behind the
 * user's code (0): who, what, when, the row it undoes and the rows that undo it, the settlement
 * that paid it out. Its endpoints hold the look-up by reference (GET /api/lookup, ./lookup.ts),
 * which opens this page among others.
 */
import { eq, sql } from "drizzle-orm";

import { walletTransactions as walletTransactionsDecl } from "../../../src/shared/modules/wallet-transactions";
import {
  businesses,
  settlementItems,
  settlements,
  users,
  walletTransactions as ledger,
} from "../../db/schema";
import { adminNameOf, bindModule } from "../../kit/bind";
import { invoiceNumberOf } from "../../services/record-numbers";
import { lookupEndpoints } from "./lookup";

/** The settlement that covers this row (settlement_items' primary key is the row's id). */
const settlementIdOf = sql<number | null>`(select ${settlementItems.settlementId}
  from ${settlementItems} where ${settlementItems.transactionId} = ${ledger.id})`;

export const walletTransactionsModule = bindModule(walletTransactionsDecl, {
  table: ledger,
  // Every ledger row has its owner (user_id is a not-null foreign key).
  joins: [{ table: users, on: eq(users.id, ledger.userId), exactlyOne: true }],
  columns: {
    accountNumber: users.accountNumber,
    userName: users.name,
    businessName: sql<string | null>`(select ${businesses.name} from ${businesses}
      where ${businesses.id} = ${ledger.businessId})`,
    agentName: sql<string | null>`(select "agent"."name" from ${users} as "agent"
      where "agent"."id" = ${ledger.agentUserId})`,
    adminName: adminNameOf(ledger.adminId),
    reversesReference: sql<string | null>`(select "undone"."reference" from ${ledger} as "undone"
      where "undone"."id" = ${ledger.reversesId})`,
    topUpId: sql<number | null>`case when ${ledger.type} = 'top_up' then ${ledger.id} end`,
    topUpReference: sql<
      string | null
    >`case when ${ledger.type} = 'top_up' then ${ledger.reference} end`,
    settlementId: settlementIdOf,
    invoiceNumber: sql<string | null>`(select ${invoiceNumberOf(settlements)} from ${settlements}
      where ${settlements.id} = ${settlementIdOf})`,
  },
  related: {
    // A payment's refunds, a top-up's reversal: through the reverses_id index.
    undoneBy: { table: ledger, parent: ledger.reversesId },
  },
  endpoints: lookupEndpoints,
});
