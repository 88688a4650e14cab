import { z } from "zod";

import { APPROVAL_STATUSES, RIDER_VERIFICATION_STATUSES, USER_ROLES } from "../domain";
import {
  confirmAction,
  defineModule,
  effectAction,
  field,
  formAction,
  type FieldOptions,
  type ItemOf,
  NEWEST_FIRST,
} from "../kit/module";
import { isoDateTime } from "../kit/types";
import { PERMISSION } from "../permissions";
import { walletStatement } from "./wallet-statement";
import {
  agentCommissionBodySchema,
  agentTypeBodySchema,
  changeAgentCommissionBodySchema,
  changeAgentTypeBodySchema,
} from "../schemas/agents";
import {
  riderDecisionBodySchema,
  riderVerificationBodySchema,
} from "../schemas/rider-verification";
import { banBodySchema, urlBodySchema, vipBodySchema } from "../schemas/user-actions";
import {
  mgmtBanBodySchema,
  mgmtUserSchema,
  resetPasswordBodySchema,
  resetPasswordResponseSchema,
  setVipBodySchema,
} from "../schemas/user-mgmt";

export const ROLE_TAGS = {
  student: "blue",
  staff: "cyan",
  public: "grey",
  merchant: "purple",
  rider: "orange",
  agent: "magenta",
} as const;
export const APPROVAL_TAGS = { pending: "gold", approved: "green", rejected: "red" } as const;

type Listing = Pick<FieldOptions, "list" | "export" | "display" | "control">;

/**
 * A wallet account holder as the API shows it (docs/domain.md), and how lists may filter,
 * sort and search them: shared by User > User, User > Approval and Dormant Account, which differ
 * only in the columns they show (`listed`).
 */
export function userFields(listed: Partial<Record<string, Listing>> = {}) {
  return {
    id: field(z.number().int(), { filter: "numberRange" }),
    accountNumber: field(z.string().describe("Unique, human-readable account number"), {
      filter: "text",
      sort: true,
      search: true,
      ...listed.accountNumber,
    }),
    name: field(z.string(), { filter: "text", sort: true, search: true, ...listed.name }),
    email: field(z.string().nullable(), { filter: "text", search: true, ...listed.email }),
    phone: field(z.string().nullable(), { filter: "text", search: true, ...listed.phone }),
    role: field(z.enum(USER_ROLES), {
      filter: "choice",
      sort: true,
      display: { kind: "tag", colours: ROLE_TAGS },
      ...listed.role,
    }),
    approvalStatus: field(z.enum(APPROVAL_STATUSES), {
      filter: "choice",
      sort: true,
      display: { kind: "tag", colours: APPROVAL_TAGS },
      ...listed.approvalStatus,
    }),
    approvalRemark: field(z.string().nullable()),
    /** A rider's verification status (none for other roles), for "pending rider verifications". */
    riderVerification: field(z.enum(RIDER_VERIFICATION_STATUSES).nullable(), {
      filter: "choice",
      filterOnly: true,
      ...listed.riderVerification,
    }),
    isBanned: field(z.boolean(), { filter: "boolean", ...listed.isBanned }),
    banRemark: field(z.string().nullable()),
    isVip: field(z.boolean(), { filter: "boolean", ...listed.isVip }),
    url: field(z.string().nullable(), listed.url),
    lastActiveAt: field(
      isoDateTime.nullable().describe("Drives dormancy; null before first activity"),
      {
        filter: "dateRange",
        sort: true,
        display: { kind: "date" },
        empty: "never",
        ...listed.lastActiveAt,
      },
    ),
    createdAt: field(isoDateTime, {
      filter: "dateRange",
      sort: true,
      display: { kind: "date" },
      ...listed.createdAt,
    }),
    updatedAt: field(isoDateTime),
  };
}

/** The columns every list of users shows, in this order (a list adds its own). */
export const USER_COLUMNS = {
  accountNumber: { list: { width: 125 } },
  // A width of its own: without one the fixed-width columns left the name a letter wide.
  name: { list: { width: 180 }, display: { kind: "link", to: "users", idField: "id" } },
  email: { list: { width: 230 } },
  phone: { list: { width: 135 } },
  role: { list: { width: 100 } },
} as const satisfies Partial<Record<string, Listing>>;

/** A user as the /user-mgmt calls answer: snake_case, as that contract names its fields. */
const mgmtUserOf = (item: Record<string, unknown>) =>
  mgmtUserSchema.parse({
    id: item.id,
    account_number: item.accountNumber,
    name: item.name,
    email: item.email,
    phone: item.phone,
    role: item.role,
    approval_status: item.approvalStatus,
    is_banned: item.isBanned,
    is_vip: item.isVip,
    created_at: item.createdAt,
  });

/** The /user-mgmt calls name a user by account number in the body. */
const BY_ACCOUNT = { from: "account_number", field: "accountNumber" } as const;

/** A top-up agent's terms: what the agent actions change, a record beside the user's. */
const AGENT_TERMS = { thing: "Agent", fields: ["agentType", "commissionRateBp"] } as const;

/**
 * The actions on one user: ban (a remark required) or unban (a remark optional) at one route,
 * VIP on or off at one route, and the URL. Each is also answered at its seed /user-mgmt call.
 */
const userActions = {
  ban: confirmAction({
    verbs: { ban: { done: "banned", value: true }, unban: { done: "unbanned", value: false } },
    field: "ban",
    method: "PATCH",
    path: "ban",
    body: banBodySchema,
    whenOf: { ban: { isBanned: ["false"] }, unban: { isBanned: ["true"] } },
    refusal: { ban: "This user is already banned", unban: "This user is not banned" },
    optionalRemark: true,
    remarkRequired: { ban: true },
    conflictCode: "ALREADY_IN_STATE",
    audit: "user",
    thing: "User Ban",
    danger: true,
    bulk: true,
    aliases: [
      {
        method: "POST",
        url: "/user-mgmt/ban-user",
        summary: "Ban (remark required) or unban a user by account number",
        tag: "user-mgmt",
        thing: "Ban User",
        body: mgmtBanBodySchema,
        key: BY_ACCOUNT,
        toBody: ({ ban, remark }) => (remark === undefined ? { ban } : { ban, remark }),
        response: mgmtUserSchema,
        answer: mgmtUserOf,
      },
    ],
  }),
  vip: confirmAction({
    verbs: { vip_on: { done: "vipOn", value: true }, vip_off: { done: "vipOff", value: false } },
    field: "isVip",
    method: "PATCH",
    path: "vip",
    body: vipBodySchema,
    whenOf: { vip_on: { isVip: ["false"] }, vip_off: { isVip: ["true"] } },
    refusal: { vip_on: "This user is already a VIP", vip_off: "This user is not a VIP" },
    conflictCode: "ALREADY_IN_STATE",
    audit: "user",
    thing: "User VIP",
    bulk: true,
    aliases: [
      {
        method: "POST",
        url: "/user-mgmt/set-vip-status",
        summary: "Make a user a VIP or not, by account number",
        tag: "user-mgmt",
        thing: "Set VIP Status",
        body: setVipBodySchema,
        key: BY_ACCOUNT,
        toBody: ({ is_vip }) => ({ isVip: is_vip }),
        response: mgmtUserSchema,
        answer: mgmtUserOf,
      },
    ],
  }),
  url: formAction({
    verb: "set_url",
    done: "urlSaved",
    method: "PATCH",
    path: "url",
    body: urlBodySchema,
    when: {},
    conflictCode: "CONFLICT",
    audit: "user",
    thing: "User URL",
    quietWhenUnchanged: true,
  }),
  /**
   * A top-up agent's type and commission: each changes the user's agent terms (404 "Agent not
   * found" for a user without them), audited as `agent.change_type` / `agent.change_commission`
   * with the terms before and after; saving the value it has is quiet. The seed's calls answer
   * with the user's whole detail.
   */
  agentType: formAction({
    verb: "change_type",
    done: "agentTypeSaved",
    method: "PATCH",
    path: "agent-type",
    body: agentTypeBodySchema,
    when: { role: ["agent"] },
    conflictCode: "CONFLICT",
    audit: "agent",
    thing: "Change Agent Type",
    of: AGENT_TERMS,
    quietWhenUnchanged: true,
    aliases: [
      {
        method: "POST",
        url: "/user-mgmt/agent/change-agent-type",
        summary: "Change a top-up agent's type",
        tag: "agents",
        thing: "Change Agent Type",
        body: changeAgentTypeBodySchema,
        key: BY_ACCOUNT,
        toBody: ({ agent_type }) => ({ agentType: agent_type }),
      },
    ],
  }),
  agentCommission: formAction({
    verb: "change_commission",
    done: "agentCommissionSaved",
    method: "PATCH",
    path: "agent-commission",
    body: agentCommissionBodySchema,
    inputs: { commissionRateBp: { kind: "basisPoints" } },
    when: { role: ["agent"] },
    conflictCode: "CONFLICT",
    audit: "agent",
    thing: "Change Agent Commission",
    of: AGENT_TERMS,
    quietWhenUnchanged: true,
    aliases: [
      {
        method: "POST",
        url: "/user-mgmt/agent/change-agent-commission",
        summary: "Change a top-up agent's commission rate (a percentage, stored in basis points)",
        tag: "agents",
        thing: "Change Agent Commission",
        body: changeAgentCommissionBodySchema,
        key: BY_ACCOUNT,
        // The alias's schema has turned the percentage into basis points.
        toBody: ({ commission_rate }) => ({ commissionRateBp: commission_rate }),
      },
    ],
  }),
  /**
   * A pending rider approved (a remark optional) or rejected (a remark required, the rider is
   * told): final, 409 ALREADY_DECIDED after; 404 "Rider not found" for a user who is no rider.
   * One audit name for both, `rider.verify`, with the rider's status and remarks before and after.
   */
  riderVerification: confirmAction({
    verbs: {
      approve: { done: "riderApproved", value: "Approved" },
      reject: { done: "riderRejected", value: "Rejected" },
    },
    field: "action",
    method: "PATCH",
    path: "rider-verification",
    body: riderDecisionBodySchema,
    when: { verificationStatus: ["pending"] },
    refusal: {
      approve: "This rider's verification was already decided",
      reject: "This rider's verification was already decided",
    },
    optionalRemark: true,
    remarkRequired: { reject: true },
    conflictCode: "ALREADY_DECIDED",
    audit: "rider.verify",
    oneAuditName: true,
    thing: "Rider Verification",
    of: { thing: "Rider", fields: ["verificationStatus", "verificationRemarks"] },
    aliases: [
      {
        method: "POST",
        url: "/user-mgmt/action-rider-verification",
        summary: "Approve or reject a pending rider (remarks required when rejecting)",
        tag: "riders",
        thing: "Rider Verification",
        body: riderVerificationBodySchema,
        key: BY_ACCOUNT,
        toBody: ({ action, remarks }) => (remarks ? { action, remark: remarks } : { action }),
      },
    ],
  }),
  /**
   * E-mails the user a one-time link to set a new password (valid one hour; only the newest works)
   * and changes no user: answered 202 once the mail is sent, 502 MAIL_FAILED when it could not be,
   * 409 NO_EMAIL for a user without an address. Audited `user.reset_password` (address, expiry).
   */
  passwordReset: effectAction({
    verb: "reset_password",
    done: "resetSent",
    path: "password-reset",
    when: {},
    conflictCode: "NO_EMAIL",
    audit: "user",
    thing: "Reset User Password",
    answer: { status: 202, response: resetPasswordResponseSchema, failures: [502] },
    aliases: [
      {
        method: "POST",
        url: "/user-mgmt/reset-user-password",
        summary: "E-mail the user a one-time password reset link (valid 1 hour)",
        tag: "user-mgmt",
        thing: "Reset User Password",
        body: resetPasswordBodySchema,
        key: BY_ACCOUNT,
        toBody: () => ({}),
      },
    ],
  }),
};

/** User > User: every wallet account holder. */
export const users = defineModule({
  name: "users",
  collection: "users",
  queryName: "users",
  menu: "user-mgmt",
  permission: PERMISSION.user,
  thing: { one: "User", many: "Users" },
  i18n: "users",
  schemaId: "UserDto",
  paths: { list: "/user-mgmt", show: "/user-details" },
  fields: userFields({
    ...USER_COLUMNS,
    approvalStatus: { list: { width: 125 } },
    riderVerification: { control: true },
    isBanned: { control: true },
    isVip: { control: true },
    createdAt: { list: { width: 125 } },
  }),
  titleField: "name",
  defaultSort: NEWEST_FIRST,
  related: { statement: walletStatement },
  actions: userActions,
});

export type UserDto = ItemOf<typeof users>;
