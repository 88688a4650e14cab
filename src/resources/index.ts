import type { ResourceProps } from "@refinedev/core";
import { administrators } from "./administrators";
import type { ResourceModule } from "./types";
import { users } from "./users";

/** Every back-office module in this build; adding one here adds its routes and menu entry. */
export const resourceModules: readonly ResourceModule[] = [administrators, users];

export const resources: ResourceProps[] = resourceModules.map((module) => module.resource);
