import { eq, sql } from "drizzle-orm";

import { wholeAccountNumber } from "../../src/shared/domain";
import type { DecisionBody } from "../../src/shared/kit/module";
import { dormantAccounts } from "../../src/shared/modules/dormant";
import { userApproval } from "../../src/shared/modules/user-approval";
import { users as userDeclaration } from "../../src/shared/modules/users";
import type { DbOrTx, Tx } from "../db";
import { agents, riders, users, wallets, type UserRow } from "../db/schema";
import { bindModule, toItem, type ActionContext } from "../kit/bind";
import type { UserDetail, UserDto } from "../../src/shared/schemas/users";
import { dormancyDaysSql } from "./settings";

/** A user row as the API shows it: the users module's record. */
export const toUserDto = (row: UserRow): UserDto => toItem(userDeclaration, row);

/**
 * A user with their wallet and role-specific facts, in one round trip: each joined table holds
 * at most one row per user (unique or primary key on user_id), so the joins never multiply rows.
 * Rider documents stay out: they are files, served by the rider-details call.
 */
export async function findUserDetail(db: DbOrTx, id: number): Promise<UserDetail | undefined> {
  const [row] = await db
    .select({
      user: users,
      wallet: { balanceSen: wallets.balanceSen, status: wallets.status },
      rider: {
        vehicleType: riders.vehicleType,
        plate: riders.plate,
        licenceNumber: riders.licenceNumber,
        verificationStatus: riders.verificationStatus,
        verificationRemarks: riders.verificationRemarks,
      },
      agent: { agentType: agents.agentType, commissionRateBp: agents.commissionRateBp },
    })
    .from(users)
    .leftJoin(wallets, eq(wallets.userId, users.id))
    .leftJoin(riders, eq(riders.userId, users.id))
    .leftJoin(agents, eq(agents.userId, users.id))
    .where(eq(users.id, id));
  if (!row) return undefined;
  // Drizzle turns a left-joined object into null when all its columns are null; each has NOT NULL
  // columns, so null means the join found no row.
  return { ...toUserDto(row.user), wallet: row.wallet, rider: row.rider, agent: row.agent };
}

/**
 * A search for a whole account number is a lookup of that account by its unique index: staff
 * type the number on a receipt or a wallet card. Through the trigram index it read the postings
 * of "w00" and "000", which every account holds (20 ms at a million users, against 0.1 ms). A
 * name, e-mail or phone that merely contains such a number is not what the term asks for.
 */
function accountLookup(term: string) {
  const number = wholeAccountNumber(term);
  return number === undefined ? undefined : eq(users.accountNumber, number);
}

/**
 * The users list: the default sort and the approval status filter are served by
 * users_created_at_idx and users_approval_status_created_at_idx; `$search` by the trigram index on
 * search_key (the four searchable fields in one column), or a whole account number by its own
 * index.
 */
export const usersModule = bindModule(userDeclaration, {
  table: users,
  searchKey: users.searchKey,
  searchExact: accountLookup,
  columns: {
    riderVerification: sql`(select ${riders.verificationStatus} from ${riders} where ${riders.userId} = ${users.id})`,
  },
  // The detail answers more than a list row (wallet, rider, agent): routes/users.ts serves it.
  show: false,
});

/** What the users list lets clients filter, sort and search (from the declaration). */
export const usersCollection = usersModule.collection;

/**
 * Dormant: no activity (or, never active, no sign-up) for longer than the dormancy period of the
 * wallet policy in force, read by each query.
 */
export const dormantModule = bindModule(dormantAccounts, {
  table: users,
  searchKey: users.searchKey,
  searchExact: accountLookup,
  columns: usersModule.binding.columns,
  scope: sql`coalesce(${users.lastActiveAt}, ${users.createdAt})
    < now() - make_interval(days => ${dormancyDaysSql()})`,
  show: false,
});

/** A pending user approved or rejected, with the remark they are told (the kit guards and audits). */
async function decideUserApproval(
  tx: Tx,
  { id, body: { action, remark } }: ActionContext<DecisionBody>,
) {
  await tx
    .update(users)
    .set({ approvalStatus: action === "approve" ? "approved" : "rejected", approvalRemark: remark })
    .where(eq(users.id, id));
}

/** User > Approval: the decision on a pending user (its list is the users list, filtered). */
export const userApprovalModule = bindModule(userApproval, {
  table: users,
  searchKey: users.searchKey,
  searchExact: accountLookup,
  columns: usersModule.binding.columns,
  show: false,
  actions: { decide: decideUserApproval },
});
