import { z } from "zod";

import { defineModule, field, jsonChangeList, type ItemOf } from "../kit/module";
import { administratorLink, instant, recordId, text } from "../kit/presets";
import { PERMISSION, PERMISSION_MODULES, type PermissionModuleKey } from "../permissions";

/** The permission areas (docs/backoffice.md): the area an audit entry belongs to. */
const AREAS = PERMISSION_MODULES.map((area) => area.key) as [
  PermissionModuleKey,
  ...PermissionModuleKey[],
];

/**
 * Audit Log (under Admin, 8): every entry of the audit trail (server/audit.ts) of the areas whose
 * codes the viewer holds (all for the super administrator), newest first: who did what to which
 * record, its before → after in the terms of the record's module. Read only.
 */
export const auditLog = defineModule({
  name: "audit-log",
  permission: PERMISSION.admin,
  thing: { one: "Audit Entry", many: "Audit Entries" },
  i18n: "auditLog",
  schemaId: "AuditLogEntry",
  paths: { list: "/audit-log" },
  fields: {
    id: recordId({ list: 90 }),
    createdAt: instant({ list: 160 }),
    ...administratorLink("adminId", "adminName", {
      list: 160,
      export: true,
      filter: true,
      empty: "system",
    }),
    /** The permission area of the record's module (`area.<key>` in the module's words). */
    area: field(z.enum(AREAS).nullable(), { list: { width: 130 }, filter: "choice", export: true }),
    /** `<audit>.<verb>`: `top_up.reverse`, `administrator.create`. */
    action: text({ list: 190, show: false, filter: true, search: true }),
    /** The declared module the record belongs to (none: global settings, content images). */
    module: field(z.string().nullable()),
    targetId: field(z.string(), {
      list: { width: 100 },
      filter: "text",
      export: true,
      display: { kind: "link", to: { field: "module" }, idField: "targetId" },
    }),
    remark: text({ nullable: true, list: 180, show: false }),
    /** The fields that differ between before and after (updatedAt aside), by name. */
    changes: field(jsonChangeList, {
      list: { width: 320 },
      export: true,
      display: { kind: "changes", ofField: "module" },
    }),
  },
  titleField: "id",
  defaultSort: [["id", "desc"]],
});

export type AuditLogEntryDto = ItemOf<typeof auditLog>;
