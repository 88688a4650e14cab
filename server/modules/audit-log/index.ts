import { inArray, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

import type { ModuleDecl } from "../../../src/shared/kit/module";
import { auditLog } from "../../../src/shared/modules/audit-log";
import { PERMISSION_MODULES, type PermissionModuleKey } from "../../../src/shared/permissions";
import { administrators, auditLog as entries } from "../../db/schema";
import { adminNameOf, bindModule, fail } from "../../kit/bind";
import { DECLARED_MODULES } from "../../kit/declared";

interface Owner {
  /** The declared module the entry's record belongs to; null: none (global settings). */
  module: string | null;
  area: PermissionModuleKey;
}

/**
 * The audit prefixes written by hand-coded routes and services rather than a declaration's
 * `audit` (`<prefix>.<verb>`). A new one must be added here: tests/server/audit-log.test.ts
 * finds every `action: "…"` the server writes and refuses one without an area.
 */
const HAND_WRITTEN: Readonly<Record<string, Owner>> = {
  // A user's record: bans, VIP, resets, its contact changed by an approval, riders, agents.
  user: { module: "users", area: "user" },
  rider: { module: "users", area: "user" },
  agent: { module: "users", area: "user" },
  administrator: { module: "administrators", area: "admin" },
  auth: { module: "administrators", area: "admin" },
  account: { module: "administrators", area: "admin" },
  global_settings: { module: null, area: "global" },
  content_image: { module: null, area: "contentMgmt" },
  // Four eyes' requests and decisions (every module's): read with the administrators' area.
  change_request: { module: "change-requests", area: "admin" },
};

const areaOf = (decl: ModuleDecl) =>
  PERMISSION_MODULES.find((area) => area.code === decl.permission)?.key;

/** Each prefix's owner: the module whose declaration audits under it (a view: the one it views). */
function ownersOf(modules: readonly ModuleDecl[]): Map<string, Owner> {
  const owners = new Map(Object.entries(HAND_WRITTEN));
  for (const decl of modules) {
    const owner = decl.viewOf ?? decl;
    const area = areaOf(owner);
    const audits = [decl.create, decl.edit, ...Object.values(decl.actions)].map((d) => d?.audit);
    for (const prefix of audits) {
      if (!prefix || !area || HAND_WRITTEN[prefix]) continue;
      const known = owners.get(prefix);
      if (known && known.module !== owner.name) {
        fail(auditLog, `audit "${prefix}" is declared by "${known.module}" and "${owner.name}"`);
      }
      owners.set(prefix, { module: owner.name, area });
    }
  }
  return owners;
}

export const AUDIT_OWNERS: ReadonlyMap<string, Owner> = ownersOf(DECLARED_MODULES);

/** An entry's `<prefix>` mapped through AUDIT_OWNERS (null for an unknown prefix). */
const byPrefix = (pick: (owner: Owner) => string | null): SQL<string | null> =>
  sql`(case split_part(${entries.action}, '.', 1) ${sql.join(
    [...AUDIT_OWNERS].map(([prefix, owner]) => sql`when ${prefix} then ${pick(owner)}::text`),
    sql` `,
  )} end)`;

const area = byPrefix((owner) => owner.area);

/** A snapshot's keys (none unless it is an object). */
const keysOf = (snapshot: AnyPgColumn) =>
  sql`jsonb_object_keys(case when jsonb_typeof(${snapshot}) = 'object' then ${snapshot} else '{}' end)`;

/** `[{field, from, to}]`: the fields whose JSON differs between before and after, by name. */
const changes = sql<unknown>`(select coalesce(jsonb_agg(jsonb_build_object(
    'field', k, 'from', ${entries.before} -> k, 'to', ${entries.after} -> k) order by k), '[]')
  from (select ${keysOf(entries.before)} as k union select ${keysOf(entries.after)}) as changed
  where k <> 'updatedAt'
    and coalesce(${entries.before} -> k, 'null') is distinct from coalesce(${entries.after} -> k, 'null'))`;

/** The entries of the areas whose codes the viewer holds; every one for the super administrator. */
function visibleTo(viewer: { isSuperAdmin: boolean; permissions: readonly number[] }) {
  if (viewer.isSuperAdmin) return undefined;
  const held = PERMISSION_MODULES.filter((a) => viewer.permissions.includes(a.code));
  return inArray(
    area,
    held.map((a) => a.key),
  );
}

export const auditLogModule = bindModule(auditLog, {
  table: entries,
  columns: {
    adminName: adminNameOf(entries.adminId),
    area,
    module: byPrefix((owner) => owner.module),
    changes,
  },
  options: {
    adminId: { table: administrators, value: administrators.id, label: administrators.name },
  },
  scopeFor: visibleTo,
  show: false,
});
