/** Every back-office module declared with the kit: both readers and the tests go through it. */
import type { ModuleDecl } from "../kit/module";
import { appNotifications } from "./app-notifications";
import { administrators } from "./administrators";
import { businessUpdates } from "./business-updates";
import { businessApproval, businesses } from "./businesses";
import { changeContact } from "./change-contact";
import { helpArticles } from "./help-articles";
import { merchantAnnouncements } from "./merchant-announcements";
import { dormantAccounts } from "./dormant";
import { parkingLots, parkingSessions } from "./parking";
import { merchantSummary, settlements } from "./settlements";
import { topUps } from "./top-ups";
import { ucsiIds } from "./ucsi-ids";
import { userReports } from "./user-reports";
import { userApproval } from "./user-approval";
import { users } from "./users";
import { walletPolicies } from "./wallet-policies";

export const MODULES: readonly ModuleDecl[] = [
  administrators,
  users,
  userApproval,
  changeContact,
  dormantAccounts,
  topUps,
  walletPolicies,
  businesses,
  businessApproval,
  businessUpdates,
  merchantSummary,
  settlements,
  ucsiIds,
  userReports,
  parkingLots,
  parkingSessions,
  helpArticles,
  merchantAnnouncements,
  appNotifications,
];
