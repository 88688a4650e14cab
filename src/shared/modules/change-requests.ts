import { z } from "zod";

import { CHANGE_REQUEST_STATUSES } from "../kit/four-eyes";
import {
  decision,
  defineModule,
  field,
  jsonChangeList,
  NEWEST_FIRST,
  remarkAction,
  type ItemOf,
} from "../kit/module";
import {
  administratorLink,
  choice,
  instant,
  money,
  recordId,
  selfLink,
  text,
} from "../kit/presets";

const STATUS_TAGS = {
  pending: "gold",
  approved: "green",
  rejected: "red",
  withdrawn: "grey",
  expired: "grey",
} as const;

/** The 409 code of a decision or withdrawal of a request that is no longer pending. */
export const REQUEST_DECIDED = "REQUEST_DECIDED";

/**
 * Pending approvals (four eyes, docs/four-eyes.md): the changes of every module that wait for a
 * second administrator, made by a declared action or form whose declaration says `fourEyes`.
 * Each administrator sees the requests they made and those they may check (holding the codes a
 * request names); a checker approves (the change is applied then, in the same transaction) or
 * rejects with a remark, never their own; the maker may withdraw it while it is pending.
 */
export const changeRequests = defineModule({
  name: "change-requests",
  permission: null,
  thing: { one: "Change Request", many: "Change Requests" },
  i18n: "changeRequests",
  schemaId: "ChangeRequest",
  paths: { list: "/change-requests", show: "/change-requests/show" },
  fields: {
    id: recordId({ list: 80 }),
    reference: selfLink({ list: 190 }),
    status: choice(z.enum(CHANGE_REQUEST_STATUSES), { list: 110, colours: STATUS_TAGS }),
    /**
     * The declared module whose record it changes (its name: `top-up-transactions`). The console
     * offers the modules that declare a second approver as a choice (no free-text control).
     */
    module: field(z.string(), {
      list: { width: 150 },
      filter: "text",
      control: false,
      export: true,
    }),
    /** The declared action (`reverse`, `permissions`), or `create` / `edit` for a form. */
    action: field(z.string(), { filter: "text", export: true }),
    verb: field(z.string(), { list: { width: 120 }, show: true, export: true }),
    recordId: field(z.number().int().nullable(), { filter: "numberRange" }),
    /** The record as it was named when the request was made (none for a new record). */
    recordTitle: text({
      nullable: true,
      list: 170,
      display: { kind: "link", to: { field: "module" }, idField: "recordId" },
    }),
    amountSen: money({ nullable: true, list: 120, filter: true, sort: true }),
    reason: text({ list: 220, search: true }),
    /** The change, old → new, in the module's terms (a new record: its fields). */
    changes: field(jsonChangeList, {
      show: true,
      export: true,
      display: { kind: "changes", ofField: "module" },
    }),
    /** Why it waits: `always`, or `above` the wallet policy's threshold (thresholdSen). */
    rule: choice(z.enum(["always", "above"]), { filter: false, sort: false }),
    thresholdSen: money({ nullable: true }),
    ...administratorLink("makerId", "makerName", { list: 150, export: true, filter: true }),
    ...administratorLink("checkerId", "checkerName", { export: true, filter: true }),
    remark: text({ nullable: true }),
    decidedAt: instant({ nullable: true }),
    /** The last refusal of an approval (the record moved on, a rule refused): code and words. */
    failureCode: text({ nullable: true, export: false }),
    failureMessage: text({ nullable: true }),
    failedAt: instant({ nullable: true, filter: false, sort: false }),
    resultId: field(z.number().int().nullable()),
    expiresAt: instant({ list: 160 }),
    createdAt: instant({ list: 160 }),
  },
  titleField: "reference",
  defaultSort: NEWEST_FIRST,
  // The work still to do: the list opens on pending requests.
  initialFilters: { status: "pending" },
  actions: {
    decide: decision({
      when: { status: ["pending"] },
      conflictCode: REQUEST_DECIDED,
      bulk: true,
      audit: "change_request",
      // Never the maker (the server refuses with 403 SELF_APPROVAL).
      offeredTo: { field: "makerId", is: "other" },
      // An approval releases the money or the power the request holds.
      stepUp: true,
    }),
    withdraw: remarkAction({
      verb: "withdraw",
      done: "withdrawn",
      when: { status: ["pending"] },
      conflictCode: REQUEST_DECIDED,
      danger: true,
      audit: "change_request",
      // Only the maker (the server refuses others with 403 NOT_MAKER).
      offeredTo: { field: "makerId", is: "self" },
    }),
  },
});

export type ChangeRequestDto = ItemOf<typeof changeRequests>;

/** `GET /api/change-requests/counts`: what waits for the signed-in administrator. */
export const changeRequestCounts = z
  .object({
    /** Pending requests of others they may decide. */
    toCheck: z.number().int(),
    /** Their own pending requests. */
    mine: z.number().int(),
  })
  .meta({ id: "ChangeRequestCounts" });
export type ChangeRequestCounts = z.infer<typeof changeRequestCounts>;
