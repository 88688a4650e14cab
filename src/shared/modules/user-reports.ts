import { z } from "zod";

import {
  defineModule,
  field,
  formAction,
  remarkAction,
  textAction,
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
import { positiveSen } from "../kit/types";
import { PERMISSION } from "../permissions";
import { safeMultilineText } from "../text";
import { businesses } from "./businesses";
import { walletTransactions } from "./wallet-transactions";

export const REPORT_TYPES = [
  "transaction_dispute",
  "merchant_complaint",
  "app_problem",
  "other",
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_STATUSES = ["open", "in_progress", "resolved", "rejected"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A resolution or rejection note: characters after trimming. */
export const REPORT_NOTE_MAX_LENGTH = 1000;

/** The 409 code of a step that does not apply to a report in its status. */
export const REPORT_TRANSITION = "REPORT_TRANSITION";

/** Which statuses each step of the workflow starts from (the server refuses the rest: 409). */
export const REPORT_STEPS = {
  assign: ["open", "in_progress"],
  start: ["open"],
  resolve: ["in_progress"],
  reject: ["open", "in_progress"],
  reopen: ["resolved", "rejected"],
} as const satisfies Record<string, readonly ReportStatus[]>;

const note = safeMultilineText()
  .trim()
  .min(1, "Note is required")
  .max(REPORT_NOTE_MAX_LENGTH, `Note must be at most ${REPORT_NOTE_MAX_LENGTH} characters`);

/** `POST /api/user-reports/{id}/assign`: who handles it (an active holder of code 37). */
export const assignReportBody = z
  .strictObject({ assigneeId: z.int().min(1).max(2_147_483_647) })
  .meta({ id: "AssignReportBody" });
export type AssignReportBody = z.infer<typeof assignReportBody>;

/** `POST /api/user-reports/{id}/start`: no fields; whoever starts it is its assignee if none. */
export const startReportBody = z.strictObject({}).meta({ id: "StartReportBody" });

/**
 * `POST /api/user-reports/{id}/resolve` (the declared action `resolve`): the note the reporter is
 * told, and for a transaction dispute an optional refund of the disputed payment (at most what
 * remains of it). A refund above the wallet policy's refund threshold waits for a second approver.
 */
export const resolveReportBody = z
  .strictObject({ note, refundSen: positiveSen.optional() })
  .meta({ id: "ResolveReportBody" });
export type ResolveReportBody = z.infer<typeof resolveReportBody>;

/** The administrators a report can be assigned to. */
export const assigneesSchema = z
  .object({ assignees: z.array(z.object({ value: z.number().int(), label: z.string() })) })
  .meta({ id: "ReportAssignees" });

const STATUS_TAGS = {
  open: "gold",
  in_progress: "blue",
  resolved: "green",
  rejected: "grey",
} as const;
const TYPE_TAGS = {
  transaction_dispute: "red",
  merchant_complaint: "orange",
  app_problem: "purple",
  other: "cyan",
} as const;

/**
 * User Report (37): what app users report, handled through assign, start, resolve or reject.
 * Assign and start are the module's own routes (server/modules/user-reports); resolve, reject
 * and reopen are declared actions.
 */
export const userReports = defineModule({
  name: "user-reports",
  permission: PERMISSION.report,
  thing: { one: "User Report", many: "User Reports" },
  i18n: "userReport",
  schemaId: "UserReport",
  paths: { list: "/user-report", show: "/user-report" },
  fields: {
    id: recordId(),
    reference: selfLink({ list: 130, filter: false }),
    // What it is about comes next: with the reference, what a phone shows of a row.
    subject: text({ list: 240, search: true }),
    type: choice(z.enum(REPORT_TYPES), { list: 170, sort: false, colours: TYPE_TAGS }),
    description: text(),
    reporterId: field(z.number().int(), { filter: "numberRange" }),
    reporterAccountNumber: text({
      list: 130,
      search: true,
      display: { kind: "link", to: "users", idField: "reporterId" },
    }),
    reporterName: text({ search: true }),
    paymentId: field(z.number().int().nullable()),
    /** The disputed payment, on its own page: the row of the payer's wallet statement. */
    paymentReference: text({
      nullable: true,
      display: { kind: "link", to: walletTransactions, idField: "paymentId" },
    }),
    paymentAmountSen: money({ nullable: true }),
    /** What can still be refunded of it (its amount less its refunds so far). */
    refundableSen: money({ nullable: true, export: false }),
    businessId: field(z.number().int().nullable()),
    businessName: text({
      nullable: true,
      list: 180,
      display: { kind: "link", to: businesses, idField: "businessId" },
    }),
    status: choice(z.enum(REPORT_STATUSES), { list: 120, colours: STATUS_TAGS }),
    ...administratorLink("assigneeId", "assigneeName", { list: 160, export: true, filter: true }),
    note: text({ nullable: true }),
    refundSen: money({ nullable: true }),
    refundReference: text({ nullable: true }),
    closedAt: instant({ nullable: true }),
    ...administratorLink("closedBy", "closedByName"),
    createdAt: instant({ list: 160 }),
  },
  titleField: "reference",
  defaultSort: [
    ["createdAt", "desc"],
    ["id", "desc"],
  ],
  actions: {
    /**
     * A report in progress resolved with a note; a transaction dispute may be refunded. The
     * report's page draws its dialog (the refund only for a dispute, at most what remains), and a
     * refund above the policy's `fourEyesRefundAboveSen` waits for a second approver.
     */
    resolve: formAction({
      verb: "resolve",
      done: "resolved",
      method: "POST",
      path: "resolve",
      body: resolveReportBody,
      when: { status: REPORT_STEPS.resolve },
      conflictCode: REPORT_TRANSITION,
      audit: "user_report",
      // The audit entry's remark is the note, as a rejection's is.
      input: { name: "note", max: REPORT_NOTE_MAX_LENGTH, multiline: true },
      listed: false,
      ownDialog: true,
      fourEyes: { above: "refund", amount: { body: "refundSen" } },
      stepUp: true,
    }),
    reject: textAction({
      verb: "reject",
      done: "rejected",
      when: { status: REPORT_STEPS.reject },
      conflictCode: REPORT_TRANSITION,
      danger: true,
      audit: "user_report",
      input: {
        name: "note",
        max: REPORT_NOTE_MAX_LENGTH,
        multiline: true,
        label: "Note",
        schemaId: "RejectReportBody",
      },
    }),
    reopen: remarkAction({
      verb: "reopen",
      done: "reopened",
      when: { status: REPORT_STEPS.reopen },
      conflictCode: REPORT_TRANSITION,
      audit: "user_report",
    }),
  },
});

export type UserReportDto = ItemOf<typeof userReports>;
