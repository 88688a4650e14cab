import { z } from "zod";

import { BUSINESS_CATEGORIES, SUBMISSION_STATUSES } from "../domain";
import { changeList, defineModule, field, type ItemOf, NEWEST_FIRST } from "../kit/module";
import { approvalDecision, choice, recordId, reviewFields, text, timestamps } from "../kit/presets";
import { PERMISSION } from "../permissions";
import { atLeastOneField } from "../schemas/rules";
import { safeText } from "../text";
import { businesses } from "./businesses";

const STATUS_TAGS = { pending: "gold", approved: "green", rejected: "red" } as const;

/**
 * What a merchant may change of its business, each field with the rule its new value keeps. A
 * request naming any other field (one the business no longer has) is refused when approved.
 */
export const businessChangesSchema = atLeastOneField(
  z
    .strictObject({
      name: safeText().trim().min(1).max(120),
      registrationNumber: safeText().trim().min(1).max(40),
      category: z.enum(BUSINESS_CATEGORIES),
      bankName: safeText().trim().min(1).max(80),
      bankAccount: z.string().regex(/^[0-9]{6,20}$/, "Bank account must be 6 to 20 digits"),
    })
    .partial(),
  "A request changes at least one field",
);

export type BusinessField = keyof z.infer<typeof businessChangesSchema>;
/** The fields a request may change, in the order the business detail shows them. */
export const BUSINESS_UPDATE_FIELDS = [
  "name",
  "registrationNumber",
  "category",
  "bankName",
  "bankAccount",
] as const satisfies readonly BusinessField[];

/**
 * Business > Business Update (4): merchants' proposed changes to their business, shown old → new
 * field by field; approving applies them to the business in the same transaction.
 */
export const businessUpdates = defineModule({
  name: "business-update-requests",
  permission: PERMISSION.business,
  thing: { one: "Business Update Request", many: "Business Update Requests" },
  i18n: "businessUpdate",
  schemaId: "BusinessUpdateRequest",
  paths: { list: "/business-update", show: "/business-update-details" },
  fields: {
    id: recordId(),
    businessId: field(z.number().int(), { filter: "numberRange" }),
    businessName: text({
      list: 190,
      filter: true,
      sort: true,
      search: true,
      display: { kind: "link", to: businesses, idField: "businessId" },
    }),
    changes: field(changeList, {
      list: { width: 340 },
      show: true,
      export: true,
      display: { kind: "changes", of: businesses },
    }),
    status: choice(z.enum(SUBMISSION_STATUSES), { list: 120, colours: STATUS_TAGS }),
    ...reviewFields(),
    ...timestamps({ list: 160 }),
  },
  titleField: "businessName",
  defaultSort: NEWEST_FIRST,
  // The work still to do: the list opens on pending requests.
  initialFilters: { status: "pending" },
  actions: {
    decide: approvalDecision("business_update"),
  },
});

export type BusinessUpdateRequestDto = ItemOf<typeof businessUpdates>;
