import type { TFunction } from "i18next";
import type { ReactNode } from "react";

import { moduleNamed } from "../../app/kit/links";
import { moduleMenuLabel } from "../../app/menu";

/**
 * A change request's module and verb in the words of the module it changes: its menu label
 * ("Top Up Transaction", not `top-up-transactions`) and the verb as its own button or screen says
 * it ("Reverse", "Counter top-up"), else the change requests' own word for it.
 */
export function moduleWords(t: TFunction, name: unknown): string {
  const target = moduleNamed(name);
  if (!target) return String(name ?? "");
  return String(t([moduleMenuLabel(target), `${target.i18n}:menu`], { defaultValue: name }));
}

export function verbWords(t: TFunction, moduleName: unknown, verb: unknown): string {
  const target = moduleNamed(moduleName);
  const said = String(verb ?? "");
  const ns = target?.i18n;
  // A form's change is named by its screen ("Counter top-up"); an edit's title names the record
  // ("Edit {{name}}"), so the change requests' own word serves; an action by its button.
  const own = !ns
    ? []
    : said === "create"
      ? [`${ns}:create.title`]
      : said === "edit"
        ? []
        : [`${ns}:decision.${said}`];
  return String(
    t([...own, `changeRequests:verb.${said}`, `kit:decision.${said}`], { defaultValue: said }),
  );
}

type Row = Record<string, unknown>;

/** The cells of the module and verb columns and lines, in the changed module's words. */
export const wordedCells = (
  t: TFunction,
): Record<"module" | "verb", (value: unknown, row: Row) => ReactNode> => ({
  module: (value) => moduleWords(t, value),
  verb: (value, row) => verbWords(t, row.module, value),
});
