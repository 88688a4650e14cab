/**
 * One change of one record, as the kit makes it: lock the record, check the guard (409 with the
 * action's code), run the module's rules, read the record again and write the audit entry with
 * before and after, in one transaction. The kit's action and edit routes go through here, and so
 * does a module's rule that changes a record of its own or another module (approving a business
 * update changes the business), so that record's history shows the change.
 */
import { eq, getTableName, sql } from "drizzle-orm";

import { recordAudit } from "../audit";
import type { Db, Tx } from "../db";
import type { AdministratorRow } from "../db/schema";
import { conflict, notFound } from "../errors";
import { auditNameOf, guardOf, verbOfBody, type ActionOf } from "../../src/shared/kit/module";
import { VERSION_FIELD } from "../../src/shared/kit/versions";
import type { Language } from "../http/language";
import {
  actionBindingOf,
  type ActionBinding,
  type ActionHandler,
  type BoundModule,
  type CreateHandler,
} from "./bind";
import { bumpVersion, checkVersion } from "./versions";

type Item = Record<string, unknown>;

/**
 * Names the administrator making the transaction's changes for the live updates' triggers
 * (migration 0037: each change event carries it, so their own console is not told of it as
 * someone else's). Transaction-local.
 */
async function markActor(tx: Tx, actor: AdministratorRow) {
  await tx.execute(sql`select set_config('app.actor', ${String(actor.id)}, true)`);
}

/**
 * What the audit trail keeps of a record: its fields but the id, the timestamps and its version
 * (which every audited change bumps: docs/versions.md).
 */
export function auditSnapshot(item: Item): Item {
  const {
    id: _id,
    createdAt: _created,
    updatedAt: _updated,
    version: _version,
    ...snapshot
  } = item;
  return snapshot;
}

/** The text a change's body holds under `key` (its remark, a bank reference), for the audit. */
export const textOf = (body: unknown, key: string) => {
  const value = typeof body === "object" && body !== null ? (body as Item)[key] : undefined;
  return typeof value === "string" ? value : null;
};

/**
 * One declared change of one record, as the kit runs it (an action, the edit form): its handler,
 * its guard (per verb when the body names one), its 409, the body's text the audit keeps as its
 * remark and the audit entry's name. The routes register it, and four eyes applies it again
 * when a request is approved.
 */
export interface Change {
  action: ActionBinding<unknown>;
  when: Readonly<Record<string, readonly string[]>>;
  /** The guard of the verb a body asks for, when it is not `when` (see ActionDecl.whenOf). */
  whenOf?: (body: unknown) => Readonly<Record<string, readonly string[]>>;
  /** The 409 message of the verb a body asks for, when the action words it. */
  refusalOf?: (body: unknown) => string | undefined;
  conflictCode: string;
  /** The body's text the audit entry keeps as its remark. */
  remarkField: string;
  audit: (body: unknown) => string;
  quietWhenUnchanged?: boolean;
  /** The record of another table the change lands on (ActionDecl.of). */
  of?: ActionOf;
}

/**
 * The declared change a module's route makes: an action by its name, or `edit`, its edit form.
 * The routes register it; four eyes applies it again when a request is approved.
 */
export function declaredChange(bound: BoundModule, name: string): Change {
  const { module, binding } = bound;
  if (name === "edit") {
    const form = module.edit!;
    return {
      action: { run: binding.edit as ActionHandler<unknown> },
      when: form.when ?? {},
      conflictCode: form.conflictCode ?? "CONFLICT",
      remarkField: "remark",
      audit: () => `${form.audit}.update`,
      quietWhenUnchanged: form.quietWhenUnchanged ?? false,
    };
  }
  const action = module.actions[name]!;
  const handlers = (binding.actions ?? {}) as Record<string, ActionHandler | ActionBinding>;
  return {
    action: actionBindingOf(handlers[name]!),
    when: action.when,
    whenOf: (body) => guardOf(action, verbOfBody(action, body)),
    refusalOf: (body) => action.refusal?.[verbOfBody(action, body)],
    conflictCode: action.conflictCode,
    remarkField: action.input.name,
    audit: (body) => auditNameOf(action, body),
    quietWhenUnchanged: action.quietWhenUnchanged ?? false,
    ...(action.of && { of: action.of }),
  };
}

/** Who makes a change of which record with what body, and what four eyes adds to it. */
export interface ChangeRun {
  actor: AdministratorRow;
  id: number;
  body: unknown;
  /** The second administrator who approved it, named in its audit entry. */
  approvedBy?: number;
  /** Refuses the change (throws) when the record is not as expected (the fields four eyes saw). */
  expect?: (record: Item) => void;
  /** The version the change was based on (its If-Match): 409 VERSION_CONFLICT when it moved on. */
  expectedVersion?: number;
  /** The language of the 409's message (the request's). */
  language?: Language;
}

/**
 * One change of one record inside the caller's transaction: lock the record, check the guard
 * (409 with its code), run the module's rules, read the record again and write the audit entry.
 * Answers the record after it and what the rules returned (for the action's effect,
 * ActionBinding.after).
 */
export async function applyChange(
  tx: Tx,
  bound: BoundModule,
  change: Change,
  run: ChangeRun,
): Promise<{ item: Item; result: unknown }> {
  const { action } = change;
  let result: unknown;
  const item = await changeRecord(
    tx,
    bound,
    {
      actor: run.actor,
      id: run.id,
      when: change.whenOf ? change.whenOf(run.body) : change.when,
      conflictCode: change.conflictCode,
      conflictMessage: change.refusalOf?.(run.body),
      quietWhenUnchanged: change.quietWhenUnchanged,
      remark: textOf(run.body, change.remarkField),
      audit: change.audit(run.body),
      record: action.record && { ...change.of!, read: action.record },
      audited: action.audit && (() => action.audit!(result)),
      approvedBy: run.approvedBy,
      expect: run.expect,
      expectedVersion: run.expectedVersion,
      language: run.language,
    },
    async (before) => {
      result = await action.run(tx, { actor: run.actor, id: run.id, body: run.body, before });
    },
  );
  return { item, result };
}

/** applyChange in a transaction of its own; a refusal reaches the action's `refused` after. */
export async function runChange(db: Db, bound: BoundModule, change: Change, run: ChangeRun) {
  try {
    return await db.transaction((tx) => applyChange(tx, bound, change, run));
  } catch (error) {
    await change.action.refused?.(db, run.id, error);
    throw error;
  }
}

/**
 * A create form's new record inside the caller's transaction: the module's handler inserts it,
 * the kit reads it and audits it (`<audit>.create`, naming the approver under four eyes).
 */
export async function createRecord(
  tx: Tx,
  bound: BoundModule,
  run: { actor: AdministratorRow; body: unknown; approvedBy?: number },
): Promise<Item> {
  const { module, binding } = bound;
  await markActor(tx, run.actor);
  const id = await (binding.create as CreateHandler<unknown>)(tx, {
    actor: run.actor,
    body: run.body,
  });
  const after = await bound.read(tx, id);
  if (!after) throw notFound(module.thing.one);
  await recordAudit(tx, {
    adminId: run.actor.id,
    action: `${module.create!.audit}.create`,
    targetTable: getTableName(binding.table),
    targetId: id,
    remark: textOf(run.body, "remark"),
    before: null,
    after: auditSnapshot(after),
    approvedBy: run.approvedBy,
  });
  return after;
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
    /** The second administrator who approved the change (four eyes). */
    approvedBy?: number;
    /** Refuses the change when the record (with the changed record's fields) is not as expected. */
    expect?: (record: Item) => void;
    /**
     * The version the change was based on (If-Match, docs/versions.md): checked after the guard,
     * under the row lock; 409 VERSION_CONFLICT with the record as it is now when it moved on.
     */
    expectedVersion?: number;
    /** The language of that 409's message. */
    language?: Language;
  },
  change: (before: Item) => Promise<void>,
): Promise<Item> {
  const { module, binding } = bound;
  const table = binding.table;
  await markActor(tx, context.actor);
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
  // The guard answers first (its own 409: someone decided first), then the version.
  await checkVersion(tx, bound, context.id, before, context.expectedVersion, context.language);
  context.expect?.(guarded);
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
  // Every change the kit audits is a new version of the record (docs/versions.md), but one that
  // lies outside it (a link issued, a receipt e-mailed: ActionBinding.audit) leaves it as it was.
  if (!context.audited) {
    const version = await bumpVersion(tx, bound, context.id);
    if (version !== undefined) after[VERSION_FIELD] = version;
  }
  await recordAudit(tx, {
    adminId: context.actor.id,
    action: context.audit,
    targetTable: getTableName(table),
    targetId: context.id,
    remark: context.remark,
    approvedBy: context.approvedBy,
    ...(context.audited?.() ?? {
      before: auditSnapshot(recordBefore),
      after: auditSnapshot(recordAfter),
    }),
  });
  return after;
}
