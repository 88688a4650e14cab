import { z } from "zod";

import { defineModule, form, remarkAction, type ItemOf } from "../kit/module";
import {
  administratorLink,
  choice,
  instant,
  recordId,
  selfLink,
  text,
  userLink,
} from "../kit/presets";
import { PERMISSION } from "../permissions";
import { crossFieldRule } from "../schemas/rules";
import { safeText } from "../text";

export const UCSI_ID_TYPES = ["student", "staff"] as const;
export type UcsiIdType = (typeof UCSI_ID_TYPES)[number];
export const UCSI_ID_STATUSES = ["active", "revoked"] as const;

/**
 * The university's ID formats (after trimming and upper-casing): a student's is ten digits
 * (1002261234), a staff member's an S and five digits (S01234).
 */
export const UCSI_ID_FORMATS: Readonly<Record<UcsiIdType, RegExp>> = {
  student: /^\d{10}$/,
  staff: /^S\d{5}$/,
};

/** An ID as staff or a file give it: trimmed and upper-cased. */
export const normaliseUcsiId = (value: string) => value.trim().toUpperCase();

/** What an account number can look like (W and nine digits today; letters and digits). */
export const ACCOUNT_NUMBER_FORMAT = /^[A-Z0-9]{4,32}$/;

/** Link an ID to an account (`POST /api/ucsi-ids`). */
export const linkUcsiIdBody = crossFieldRule(
  z.strictObject({
    ucsiId: safeText()
      .trim()
      .min(1, "UCSI ID is required")
      .max(20, "UCSI ID must be at most 20 characters")
      .transform(normaliseUcsiId),
    type: z.enum(UCSI_ID_TYPES),
    accountNumber: safeText()
      .trim()
      .min(1, "Account number is required")
      .max(32, "Account number must be at most 32 characters"),
  }),
  {
    fields: ["ucsiId", "type"],
    rule: 'ucsiId: ten digits for type "student", S and five digits for type "staff"',
  },
  (body, ctx) => {
    if (!UCSI_ID_FORMATS[body.type].test(body.ucsiId)) {
      ctx.addIssue({
        code: "custom",
        path: ["ucsiId"],
        params: { rule: `${body.type}IdFormat` },
        message:
          body.type === "student"
            ? "A student ID is ten digits"
            : "A staff ID is S followed by five digits",
      });
    }
  },
).meta({ id: "LinkUcsiIdBody" });
export type LinkUcsiIdBody = z.infer<typeof linkUcsiIdBody>;

/** The import file: its header line, its size and row limits. */
export const UCSI_IMPORT_HEADER = ["ucsi_id", "type", "account_number"] as const;
export const UCSI_IMPORT_MAX_BYTES = 4 * 1024 * 1024;
export const UCSI_IMPORT_MAX_ROWS = 60_000;
export const UCSI_IMPORT_FIELD = "file";

/** Why a row of an import cannot be linked (or `ok`). */
export const IMPORT_ROW_RESULTS = [
  "ok",
  "bad_format",
  "formula",
  "unknown_account",
  "duplicate_in_file",
  "already_linked",
  "account_linked",
] as const;
export type ImportRowResult = (typeof IMPORT_ROW_RESULTS)[number];

export const importRowSchema = z
  .object({
    /** The line of the file (the header is line 1). */
    line: z.number().int(),
    ucsiId: z.string(),
    type: z.string(),
    accountNumber: z.string(),
    result: z.enum(IMPORT_ROW_RESULTS),
  })
  .meta({ id: "UcsiImportRow" });
export type ImportRow = z.infer<typeof importRowSchema>;

export const importResultSchema = z
  .object({
    dryRun: z.boolean(),
    total: z.number().int(),
    valid: z.number().int(),
    invalid: z.number().int(),
    /** Rows linked (0 on a dry run). */
    imported: z.number().int(),
    /** One result per row, in file order. */
    rows: z.array(importRowSchema),
  })
  .meta({ id: "UcsiImportResult" });
export type ImportResult = z.infer<typeof importResultSchema>;

const STATUS_TAGS = { active: "green", revoked: "grey" } as const;
const TYPE_TAGS = { student: "blue", staff: "purple" } as const;

/** The account an ID is linked to: its holder's name, and account number linking to them. */
const HOLDER = userLink({ name: { list: 180, search: true } });

/** UCSI ID Management (28): university IDs linked to wallet accounts. */
export const ucsiIds = defineModule({
  name: "ucsi-ids",
  permission: PERMISSION.ucsiIdMgmt,
  thing: { one: "UCSI ID", many: "UCSI IDs" },
  i18n: "ucsiId",
  schemaId: "UcsiId",
  paths: { list: "/ucsi-id-mgmt", show: "/ucsi-id-mgmt", create: "/ucsi-id-mgmt/create" },
  fields: {
    id: recordId(),
    ucsiId: selfLink({ list: 140, sort: true }),
    // Whose ID it is comes next: with the ID, what a phone shows of a row.
    userName: HOLDER.userName,
    userId: HOLDER.userId,
    accountNumber: HOLDER.accountNumber,
    type: choice(z.enum(UCSI_ID_TYPES), { list: 100, sort: false, colours: TYPE_TAGS }),
    status: choice(z.enum(UCSI_ID_STATUSES), { list: 100, colours: STATUS_TAGS }),
    linkedAt: instant({ list: 160 }),
    ...administratorLink("linkedBy", "linkedByName"),
    revokedAt: instant({ nullable: true }),
    ...administratorLink("revokedBy", "revokedByName"),
    remark: text({ nullable: true }),
  },
  titleField: "ucsiId",
  defaultSort: [
    ["linkedAt", "desc"],
    ["id", "desc"],
  ],
  actions: {
    revoke: remarkAction({
      verb: "revoke",
      done: "revoked",
      when: { status: ["active"] },
      conflictCode: "UCSI_ID_REVOKED",
      danger: true,
      audit: "ucsi_id",
    }),
  },
  create: form({ body: linkUcsiIdBody, audit: "ucsi_id" }),
});

export type UcsiIdDto = ItemOf<typeof ucsiIds>;
