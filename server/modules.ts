/**
 * Every back-office module declared with the kit (src/shared/modules) and bound to its tables:
 * the app registers their routes from this list, and the conformance suite and the
 * authorisation matrix go through it, so a new module is covered by being listed here.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { contentImageRoutes } from "./content/images";
import { registerModuleRoutes, type BoundModule } from "./kit/bind";
import { administratorsModule } from "./routes/administrators";
import { helpArticleRoutes } from "./routes/help-articles";
import { merchantAnnouncementRoutes } from "./routes/merchant-announcements";
import { settlementRoutes } from "./routes/settlements";
import type { RouteDeps } from "./routes/types";
import { ucsiIdRoutes } from "./routes/ucsi-ids";
import { userReportRoutes } from "./routes/user-reports";
import { walletPolicyRoutes } from "./routes/wallet-policies";
import { appNotificationsModule } from "./services/app-notifications";
import { businessUpdatesModule } from "./services/business-updates";
import { businessApprovalModule, businessesModule } from "./services/businesses";
import { changeContactModule } from "./services/change-contact";
import { helpArticlesModule } from "./services/help-articles";
import { merchantAnnouncementsModule } from "./services/merchant-announcements";
import { parkingLotsModule, parkingSessionsModule } from "./services/parking";
import { merchantSummaryModule, settlementsModule } from "./services/settlements";
import { topUpsModule } from "./services/top-ups";
import { ucsiIdsModule } from "./services/ucsi-ids";
import { userReportsModule } from "./services/user-reports";
import { dormantModule, userApprovalModule, usersModule } from "./services/users";
import { walletPoliciesModule } from "./services/wallet-policies";

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
