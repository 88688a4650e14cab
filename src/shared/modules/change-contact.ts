import { z } from "zod";

import { CONTACT_TYPES, SUBMISSION_STATUSES } from "../domain";
import { decision, defineModule, field, type ItemOf, NEWEST_FIRST } from "../kit/module";
import { choice, recordId, text, timestamps } from "../kit/presets";
import { isoDateTime } from "../kit/types";
import { PERMISSION } from "../permissions";

const STATUS_TAGS = { pending: "gold", approved: "green", rejected: "red" } as const;

/** User > Change Contact: users' requests to change their e-mail or phone, decided by staff. */
export const changeContact = defineModule({
  name: "change-contact-submissions",
  // The list answers at the collection itself (a legacy path, docs/api.md).
  listPath: "/api/change-contact-submissions",
  permission: PERMISSION.user,
  thing: { one: "Change Contact Submission", many: "Change Contact Submissions" },
  i18n: "contact",
  schemaId: "ChangeContactSubmission",
  paths: { list: "/user-change-contact" },
  fields: {
    id: recordId(),
    userId: field(z.number().int(), { filter: "numberRange" }),
    userName: field(z.string(), {
      list: { width: 200 },
      filter: "text",
      sort: true,
      search: true,
      export: true,
      display: { kind: "link", to: "users", idField: "userId" },
    }),
    accountNumber: text({ show: false, filter: true, search: true }),
    contactType: choice(z.enum(CONTACT_TYPES), { list: 110, show: false }),
    oldValue: text({ nullable: true, list: 220, show: false, filter: true, search: true }),
    newValue: text({
      list: 220,
      show: false,
      filter: true,
      search: true,
      display: { kind: "text", strong: true },
    }),
    status: choice(z.enum(SUBMISSION_STATUSES), { list: 130, show: false, colours: STATUS_TAGS }),
    remark: text({ nullable: true, show: false }),
    reviewerId: field(z.number().int().nullable()),
    reviewedAt: field(isoDateTime.nullable(), { filter: "dateRange", sort: true, export: true }),
    ...timestamps({ list: 160, show: false }),
  },
  titleField: "userName",
  defaultSort: NEWEST_FIRST,
  // The work still to do: the list opens on pending submissions.
  initialFilters: { status: "pending" },
  actions: {
    decide: decision({ when: { status: ["pending"] }, bulk: true, audit: "change_contact" }),
  },
});

export type ChangeContactSubmissionDto = ItemOf<typeof changeContact>;
