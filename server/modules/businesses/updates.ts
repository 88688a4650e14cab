import { eq, sql } from "drizzle-orm";

import type { DecisionBody } from "../../../src/shared/kit/module";
import {
  BUSINESS_UPDATE_FIELDS,
  businessChangesSchema,
  businessUpdates,
} from "../../../src/shared/modules/business-updates";
import type { Tx } from "../../db";
import { businesses, businessUpdateRequests as table } from "../../db/schema";
import { conflict } from "../../errors";
import { adminNameOf, bindModule, type ActionContext } from "../../kit/bind";
import { changeRecord } from "../../kit/change";
import { maskedAccount } from "../../services/bank-accounts";
import { businessesModule } from "./businesses";

const FIELD_ORDER = sql`array[${sql.join(
  BUSINESS_UPDATE_FIELDS.map((key) => sql`${key}`),
  sql`, `,
)}]::text[]`;

/**
 * `[{field, from, to}]` from the request's two JSON objects: its fields in the order the business
 * shows them (a field it no longer has last), the settlement account masked.
 */
const changesColumn = sql<unknown>`(
  select coalesce(jsonb_agg(jsonb_build_object(
    'field', k,
    'from', case when k = 'bankAccount'
      then ${maskedAccount(sql`${table.previous} ->> k`)} else ${table.previous} ->> k end,
    'to', case when k = 'bankAccount'
      then ${maskedAccount(sql`${table.changes} ->> k`)} else ${table.changes} ->> k end)
    order by coalesce(array_position(${FIELD_ORDER}, k), 99), k), '[]'::jsonb)
  from jsonb_object_keys(${table.changes}) as k)`;

const columns = {
  businessName: businesses.name,
  changes: changesColumn,
  reviewerName: adminNameOf(table.reviewerId),
};
const joins = [{ table: businesses, on: eq(businesses.id, table.businessId) }];

/** The business's columns a request may change, by field name. */
const BUSINESS_COLUMNS = {
  name: businesses.name,
  registrationNumber: businesses.registrationNumber,
  category: businesses.category,
  bankName: businesses.bankName,
  bankAccount: businesses.bankAccount,
} as const;

/**
 * Applies an approved request to its business, audited on the business as its own change. Refused
 * (409, nothing changes) when the request names a field a business no longer has or a value the
 * rules refuse, when the business was rejected, or when any field it changes no longer holds the
 * value it had when the merchant asked (someone changed the business since).
 */
async function apply(tx: Tx, { actor, id, body }: ActionContext<DecisionBody>) {
  const [request] = await tx
    .select({ businessId: table.businessId, changes: table.changes, previous: table.previous })
    .from(table)
    .where(eq(table.id, id));
  if (!request) return;
  const unknown = Object.keys(request.changes).find((key) => !(key in BUSINESS_COLUMNS));
  if (unknown !== undefined) {
    throw conflict(
      "UPDATE_FIELD_REMOVED",
      `This request changes "${unknown}", which a business no longer has: reject it instead`,
      { field: unknown },
    );
  }
  const parsed = businessChangesSchema.safeParse(request.changes);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "");
    throw conflict(
      "UPDATE_VALUE_INVALID",
      `This request's new ${field} is not a valid value: reject it instead`,
      { field },
    );
  }
  const changes = parsed.data;
  await changeRecord(
    tx,
    businessesModule,
    {
      actor,
      id: request.businessId,
      audit: "business.apply_update",
      remark: body.remark,
      when: { status: ["pending", "approved", "suspended"] },
      conflictCode: "BUSINESS_REJECTED",
    },
    async () => {
      const [current] = await tx
        .select(BUSINESS_COLUMNS)
        .from(businesses)
        .where(eq(businesses.id, request.businessId));
      const moved = Object.keys(changes).filter(
        (key) => current?.[key as keyof typeof changes] !== request.previous[key],
      );
      if (moved.length > 0) {
        throw conflict(
          "BUSINESS_CHANGED_SINCE",
          `The business's ${moved.join(", ")} changed after this request was made`,
          { field: moved[0] },
        );
      }
      await tx.update(businesses).set(changes).where(eq(businesses.id, request.businessId));
    },
  );
}

async function decide(tx: Tx, context: ActionContext<DecisionBody>) {
  const { actor, id, body } = context;
  if (body.action === "approve") await apply(tx, context);
  await tx
    .update(table)
    .set({
      status: body.action === "approve" ? "approved" : "rejected",
      remark: body.remark,
      reviewerId: actor.id,
      reviewedAt: new Date(),
    })
    .where(eq(table.id, id));
}

/** Business > Business Update: the list, one request, and its decision. */
export const businessUpdatesModule = bindModule(businessUpdates, {
  table,
  joins,
  columns,
  actions: { decide },
});
