import { z } from "zod";

import { aggregationListSchema } from "../aggregation/route";
import { CONTACT_TYPES, SUBMISSION_STATUSES } from "../db/schema";
import { isoDateTime } from "./common";

/** A user's request to change their e-mail or phone, with who they are. */
export const changeContactSubmissionSchema = z
  .object({
    id: z.number().int(),
    userId: z.number().int(),
    userName: z.string(),
    accountNumber: z.string(),
    contactType: z.enum(CONTACT_TYPES),
    oldValue: z.string().nullable(),
    newValue: z.string(),
    status: z.enum(SUBMISSION_STATUSES),
    remark: z.string().nullable(),
    reviewerId: z.number().int().nullable(),
    reviewedAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "ChangeContactSubmission" });
export type ChangeContactSubmissionDto = z.output<typeof changeContactSubmissionSchema>;

export const changeContactListSchema = aggregationListSchema(
  "changeContactSubmissions",
  changeContactSubmissionSchema,
);
