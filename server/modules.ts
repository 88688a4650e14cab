/**
 * Every back-office module declared with the kit (src/shared/modules) and bound to its tables:
 * the app registers their routes from this list, and the conformance suite and the
 * authorisation matrix go through it, so a new module is covered by being listed here.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { registerModuleRoutes, type BoundModule } from "./kit/bind";
import { administratorsModule } from "./routes/administrators";
import type { RouteDeps } from "./routes/types";
import { appNotificationsModule } from "./services/app-notifications";
import { businessUpdatesModule } from "./services/business-updates";
import { businessApprovalModule, businessesModule } from "./services/businesses";
import { changeContactModule } from "./services/change-contact";
import { parkingLotsModule, parkingSessionsModule } from "./services/parking";
import { merchantSummaryModule, settlementRoutes, settlementsModule } from "./services/settlements";
import { topUpsModule } from "./services/top-ups";
import { ucsiIdRoutes, ucsiIdsModule } from "./services/ucsi-ids";
import { userReportRoutes, userReportsModule } from "./services/user-reports";
import { dormantModule, userApprovalModule, usersModule } from "./services/users";
import { walletPoliciesModule, walletPolicyRoutes } from "./services/wallet-policies";
import { contentImageRoutes } from "./content/images";
import { helpArticleRoutes, helpArticlesModule } from "./services/help-articles";
import {
  merchantAnnouncementRoutes,
  merchantAnnouncementsModule,
} from "./services/merchant-announcements";

export const BOUND_MODULES: readonly BoundModule[] = [
  administratorsModule,
  usersModule,
  userApprovalModule,
  changeContactModule,
  dormantModule,
  topUpsModule,
  walletPoliciesModule,
  businessesModule,
  businessApprovalModule,
  businessUpdatesModule,
  merchantSummaryModule,
  settlementsModule,
  ucsiIdsModule,
  userReportsModule,
  parkingLotsModule,
  parkingSessionsModule,
  helpArticlesModule,
  merchantAnnouncementsModule,
  appNotificationsModule,
];

/** The declared modules' list, show and action routes. */
export const moduleRoutesPlugin: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { db } = deps;
  for (const bound of BOUND_MODULES) registerModuleRoutes(app, db, bound);
  await app.register(walletPolicyRoutes, deps);
  await app.register(settlementRoutes, deps);
  await app.register(ucsiIdRoutes, deps);
  await app.register(userReportRoutes, deps);
  await app.register(helpArticleRoutes, deps);
  await app.register(merchantAnnouncementRoutes, deps);
  await app.register(
    contentImageRoutes(
      [helpArticlesModule, merchantAnnouncementsModule].map(({ module }) => ({
        collection: module.collection,
        permission: module.permission!,
        thing: module.thing.one,
      })),
    ),
    deps,
  );
};
