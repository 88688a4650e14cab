import type { TFunction } from "i18next";

import type { ModuleDecl } from "../../shared/kit/module";

/**
 * Where a generated screen finds its words: the module's namespace first (`<ns>:<key>`), then
 * the kit's own wording (`kit:<key>`), so a module words only what it wants to say differently.
 */
/** What words are looked up by: a module's namespace, and the module it views. */
type Worded = Pick<ModuleDecl, "i18n" | "viewOf">;

export function moduleText(t: TFunction, module: Worded) {
  const ns = module.i18n;
  return (key: string, options?: Record<string, unknown>): string =>
    String(t([`${ns}:${key}`, `kit:${key}`], options ?? {}));
}

/** The namespaces a module's words are looked up in: its own, then the module it views. */
const namespacesOf = (module: Worded) =>
  module.viewOf ? [module.i18n, module.viewOf.i18n] : [module.i18n];

/** A field's label: `<ns>:fields.<field>`. */
export const fieldLabel = (t: TFunction, module: Worded, field: string) =>
  String(t(namespacesOf(module).map((ns) => `${ns}:fields.${field}`)));

/** A value of a closed set: `<ns>:<field>.<value>`; a value without words as it is. */
export const valueLabel = (t: TFunction, module: Worded, field: string, value: unknown) =>
  String(
    t(
      namespacesOf(module).map((ns) => `${ns}:${field}.${String(value)}`),
      { defaultValue: String(value) },
    ),
  );

/** The record's name in dialogs and toasts. */
export const titleOf = (module: ModuleDecl, row: Record<string, unknown>) =>
  String(row[module.titleField] ?? "");
