import type { TFunction } from "i18next";

import type { ModuleDecl } from "../../shared/kit/module";

/**
 * Where a generated screen finds its words: the module's namespace first (`<ns>:<key>`), then
 * the kit's own wording (`kit:<key>`), so a module words only what it wants to say differently.
 */
export function moduleText(t: TFunction, module: ModuleDecl) {
  const ns = module.i18n;
  return (key: string, options?: Record<string, unknown>): string =>
    String(t([`${ns}:${key}`, `kit:${key}`], options ?? {}));
}

/** A field's label: `<ns>:fields.<field>`. */
export const fieldLabel = (t: TFunction, module: ModuleDecl, field: string) =>
  String(t(`${module.i18n}:fields.${field}`));

/** A value of a closed set: `<ns>:<field>.<value>`. */
export const valueLabel = (t: TFunction, module: ModuleDecl, field: string, value: unknown) =>
  String(t(`${module.i18n}:${field}.${String(value)}`));

/** The record's name in dialogs and toasts. */
export const titleOf = (module: ModuleDecl, row: Record<string, unknown>) =>
  String(row[module.titleField] ?? "");
