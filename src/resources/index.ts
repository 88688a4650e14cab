import type { ResourceProps } from "@refinedev/core";
import { administrators } from "./administrators";
import { changeContact } from "./change-contact";
import { dormant } from "./dormant";
import type { ResourceModule } from "./types";
import { userApproval } from "./user-approval";
import { users } from "./users";

/** Every back-office module in this build; adding one here adds its routes and menu entry. */
export const resourceModules: readonly ResourceModule[] = [
  administrators,
  users,
  userApproval,
  changeContact,
  dormant,
];

export const resources: ResourceProps[] = resourceModules.map((module) => module.resource);
