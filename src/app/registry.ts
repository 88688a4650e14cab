/**
 * The console's registry of back-office modules, found rather than listed: every declaration
 * exported by a file of src/shared/modules (Vite gathers the files; defineModule marks what it
 * declares, src/shared/kit/registry.ts), in the order of the menu, and the menu built from them
 * and its layout (src/app/menu.ts). Declaring a module in that folder adds it here; a menu entry
 * naming no module, or a module no menu group shows, throws when the console loads.
 *
 * Only the signed-in console imports it: the declarations carry zod, which the login page does
 * without.
 */
import { registryOf } from "./menu";

const declarationFiles = import.meta.glob<Record<string, unknown>>("../shared/modules/*.ts", {
  eager: true,
});

export const { MODULES, MENU } = registryOf(Object.values(declarationFiles));
