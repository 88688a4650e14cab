import type { LinkedModule } from "../../shared/kit/module";

/** One changed field of an audit entry. */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === "" ||
  (Array.isArray(value) && value.length === 0);

/**
 * The fields of a module that only hold the id behind another field's link (`adminId` behind
 * `adminName`): the linked name says the same in words, so a history leaves the id out.
 */
export const linkIdFields = (module: Pick<LinkedModule, "fields">): ReadonlySet<string> =>
  new Set(
    Object.values(module.fields).flatMap((decl) =>
      decl.display?.kind === "link" ? [decl.display.idField] : [],
    ),
  );

/**
 * The fields whose values differ between an entry's before and after snapshots: not the record's
 * `updatedAt`, nor a field empty on both sides (a new record's blanks). Given the module the
 * record belongs to, without the ids its links stand for and in the order it declares its fields
 * (the others after them); else sorted by name.
 */
export function auditChanges(
  before: unknown,
  after: unknown,
  module?: Pick<LinkedModule, "fields">,
): AuditChange[] {
  const from = isRecord(before) ? before : {};
  const to = isRecord(after) ? after : {};
  const ids = module ? linkIdFields(module) : new Set<string>();
  const declared = Object.keys(module?.fields ?? {});
  const order = (field: string) => {
    const index = declared.indexOf(field);
    return index === -1 ? declared.length : index;
  };
  const fields = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort(
    (a, b) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0),
  );
  return fields
    .filter((field) => JSON.stringify(from[field]) !== JSON.stringify(to[field]))
    .filter((field) => field !== "updatedAt" && !ids.has(field))
    .filter((field) => !(isEmpty(from[field]) && isEmpty(to[field])))
    .map((field) => ({ field, before: from[field], after: to[field] }));
}
