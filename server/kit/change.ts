/**
 * One change of one record, as the kit makes it: lock the record, check the guard (409 with the
 * action's code), run the module's rules, read the record again and write the audit entry with
 * before and after, in one transaction. The kit's action and edit routes go through here, and so
 * does a module's rule that changes a record of its own or another module (approving a business
 * update changes the business), so that record's history shows the change.
 */
import { eq, getTableName } from "drizzle-orm";

import { recordAudit } from "../audit";
import type { Db, Tx } from "../db";
import type { AdministratorRow } from "../db/schema";
import { conflict, notFound } from "../errors";
import type { ActionOf } from "../../src/shared/kit/module";
import type { ActionBinding, ActionContext, BoundModule } from "./bind";

type Item = Record<string, unknown>;

/** What the audit trail keeps of a record: its fields but the id and the timestamps. */
export function auditSnapshot(item: Item): Item {
  const { id: _id, createdAt: _created, updatedAt: _updated, ...snapshot } = item;
  return snapshot;
}

/** The text a change's body holds under `key` (its remark, a bank reference), for the audit. */
export const textOf = (body: unknown, key: string) => {
  const value = typeof body === "object" && body !== null ? (body as Item)[key] : undefined;
  return typeof value === "string" ? value : null;
};

/**
 * One change of one record in one transaction: lock the record, check the guard (409 with its
 * code), run the module's rules, read the record again and write the audit entry. Answers the
 * record after it and what the rules returned (for the action's effect, ActionBinding.after).
 */
export async function runChange(
  db: Db,
  bound: BoundModule,
  action: ActionBinding<unknown>,
  context: Omit<ActionContext<unknown>, "before"> &
    ChangeGuard & { audit: string; remark: string | null; of?: ActionOf },
): Promise<{ item: Item; result: unknown }> {
  let result: unknown;
  const item = await db.transaction((tx) =>
    changeRecord(
      tx,
      bound,
      {
        ...context,
        record: action.record && { ...context.of!, read: action.record },
        audited: action.audit && (() => action.audit!(result)),
      },
      async (before) => {
        result = await action.run(tx, {
          actor: context.actor,
          id: context.id,
          body: context.body,
          before,
        });
      },
    ),
  );
  return { item, result };
}

interface ChangeGuard {
  /** The records the change applies to: field → allowed values (others: 409 `conflictCode`). */
  when: Readonly<Record<string, readonly string[]>>;
  conflictCode: string;
  /** The 409's message, when the change words it ("This user is already banned"). */
  conflictMessage?: string;
  /** A change that leaves the record as it was writes no audit entry. */
  quietWhenUnchanged?: boolean;
}

/**
 * Changes one record of a bound module inside the caller's transaction, as the kit does: locks
 * it, checks the guard, runs `change`, reads it again and writes `audit` with before and after.
 * An action of one module that changes a record of another (approving a business update
 * changes the business) goes through here, so the other record's history shows the change.
 */
export async function changeRecord(
  tx: Tx,
  bound: BoundModule,
  context: Partial<ChangeGuard> & {
    actor: AdministratorRow;
    id: number;
    audit: string;
    remark: string | null;
    /** The record of another table the change lands on, when not the module's (ActionDecl.of). */
    record?: Pick<ActionOf, "thing"> & { read: (tx: Tx, id: number) => Promise<Item | undefined> };
    /** What the audit entry keeps when the change lies outside the record (ActionBinding.audit). */
    audited?: () => { before?: Item; after: Item };
  },
  change: (before: Item) => Promise<void>,
): Promise<Item> {
  const { module, binding } = bound;
  const table = binding.table;
  const [locked] = await tx
    .select({ id: table.id })
    .from(table)
    .where(eq(table.id, context.id))
    .for("update");
  const thing = (module.viewOf ?? module).thing.one;
  const before = locked && (await bound.read(tx, context.id));
  if (!before) throw notFound(thing);
  // What the audit keeps: the module's record, or the other record the change lands on.
  const { record } = context;
  const changed = async (row: Item) => {
    if (!record) return row;
    const found = await record.read(tx, context.id);
    if (!found) throw notFound(record.thing);
    return found;
  };
  const recordBefore = await changed(before);
  // The guard reads the module's record with the changed record's fields over it.
  const guarded = { ...before, ...recordBefore };
  for (const [key, allowed] of Object.entries(context.when ?? {})) {
    const value = guarded[key];
    if (!allowed.includes(String(value))) {
      throw conflict(
        context.conflictCode ?? "CONFLICT",
        context.conflictMessage ??
          `This ${thing.toLowerCase()} is ${String(value)}, not ${allowed.join(" or ")}`,
        { [key]: value },
      );
    }
  }
  await change(before);
  const after = await bound.read(tx, context.id);
  if (!after) throw notFound(thing);
  const recordAfter = await changed(after);
  if (
    context.quietWhenUnchanged &&
    JSON.stringify(auditSnapshot(recordBefore)) === JSON.stringify(auditSnapshot(recordAfter))
  ) {
    return after;
  }
  await recordAudit(tx, {
    adminId: context.actor.id,
    action: context.audit,
    targetTable: getTableName(table),
    targetId: context.id,
    remark: context.remark,
    ...(context.audited?.() ?? {
      before: auditSnapshot(recordBefore),
      after: auditSnapshot(recordAfter),
    }),
  });
  return after;
}
