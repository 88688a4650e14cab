import type { ResourceProps } from "@refinedev/core";

import { resourceOf } from "../app/kit/resource";
import type { ResourceModule } from "../app/kit/types";
import { MODULES } from "../shared/modules";
import { administrators } from "./administrators";
import { changeContact } from "./change-contact";
import { dormant } from "./dormant";
import { parking } from "./parking";
import { helpArticles } from "./help-articles";
import { merchantAnnouncements } from "./merchant-announcements";
import { settlements } from "./settlements";
import { topUps } from "./top-ups";
import { ucsiIds } from "./ucsi-ids";
import { userReports } from "./user-reports";
import { users } from "./users";
import { walletPolicy } from "./wallet-policy";

/** Modules with a screen of their own (a folder here); every other one is drawn whole by the kit. */
const WITH_OWN_SCREENS: readonly ResourceModule[] = [
  administrators,
  users,
  changeContact,
  dormant,
  topUps,
  walletPolicy,
  settlements,
  ucsiIds,
  userReports,
  parking,
  helpArticles,
  merchantAnnouncements,
];

/**
 * Every back-office module in this build, one per declaration (src/shared/modules): declaring a
 * module adds its routes and its menu entry.
 */
export const resourceModules: readonly ResourceModule[] = MODULES.map(
  (module) =>
    WITH_OWN_SCREENS.find((own) => own.resource.name === module.name) ?? resourceOf(module),
);

export const resources: ResourceProps[] = resourceModules.map((module) => module.resource);
