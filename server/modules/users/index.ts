/**
 * The User (0) module and its views: the users list (its detail, the actions on a user, riders,
 * agents and the legacy /user-mgmt calls are its endpoints, ./endpoints.ts), Dormant Account and
 * User > Approval.
 */
import { eq, sql } from "drizzle-orm";

import { wholeAccountNumber } from "../../../src/shared/domain";
import type { DecisionBody } from "../../../src/shared/kit/module";
import type { BanBody } from "../../../src/shared/schemas/user-actions";
import { dormantAccounts } from "../../../src/shared/modules/dormant";
import { userApproval } from "../../../src/shared/modules/user-approval";
import { users as userDeclaration } from "../../../src/shared/modules/users";
import type { Tx } from "../../db";
import { riders, users } from "../../db/schema";
import { conflict } from "../../errors";
import { bindModule, type ActionContext } from "../../kit/bind";
import { resetLinkAction, USER_RESET_LINKS } from "../../services/password-reset";
import { dormancyDaysSql } from "../../services/settings";
import { agentCommissionAction, agentTypeAction } from "./agents";
import { userEndpoints } from "./endpoints";
import { riderVerificationAction } from "./riders";
import { statementRows } from "./statement";

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

/** Ban (the remark the user is told is kept) or unban (the ban's remark goes with the ban). */
async function banUser(tx: Tx, { id, body: { ban, remark } }: ActionContext<BanBody>) {
  await tx
    .update(users)
    .set({ isBanned: ban, banRemark: ban ? (remark ?? null) : null })
    .where(eq(users.id, id));
}

async function setVip(tx: Tx, { id, body: { isVip } }: ActionContext<{ isVip: boolean }>) {
  await tx.update(users).set({ isVip }).where(eq(users.id, id));
}

/** Setting the URL it already has is not a change (the action is quiet then: no audit entry). */
async function setUrl(tx: Tx, { id, body: { url } }: ActionContext<{ url: string | null }>) {
  await tx.update(users).set({ url }).where(eq(users.id, id));
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
  // The detail answers more than a list row (wallet, rider, agent): ./detail-endpoints.ts serves it.
  show: false,
  related: { statement: statementRows },
  actions: {
    ban: banUser,
    vip: setVip,
    url: setUrl,
    agentType: agentTypeAction,
    agentCommission: agentCommissionAction,
    riderVerification: riderVerificationAction,
    passwordReset: resetLinkAction(USER_RESET_LINKS, "wallet", async (tx, _actor, id) => {
      const [user] = await tx
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(eq(users.id, id));
      if (!user?.email) {
        throw conflict("NO_EMAIL", "This user has no e-mail address to send the reset link to");
      }
      return { email: user.email, name: user.name };
    }),
  },
  endpoints: userEndpoints,
});

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
