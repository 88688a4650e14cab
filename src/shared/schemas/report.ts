import { z } from "zod";

import { CALCULATOR_FIELDS } from "../calculator/inputs";
import { safeText } from "../text";
import { errorBodySchema, errorResponses, emailSchema } from "./common";
import { crossFieldRule } from "./rules";

export const REPORT_LANGUAGES = ["en-US", "cn-ZH"] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

/**
 * What the visitor typed into each field, as text. Only the field keys of the calculator are
 * accepted; the values are checked by the shared rules (validateCalculatorInputs) in the route, so
 * page and server refuse exactly the same figures. The length bound only keeps junk out.
 */
const inputsSchema = crossFieldRule(
  z
    .strictObject(
      Object.fromEntries(
        CALCULATOR_FIELDS.map((field) => [
          field.key,
          safeText({ requireVisible: false }).max(200).optional(),
        ]),
      ) as Record<(typeof CALCULATOR_FIELDS)[number]["key"], z.ZodOptional<z.ZodString>>,
    )
    .describe("The calculator's fields as typed (amounts in RM, at most 2 decimals); blank = 0"),
  // Checked by the route, with the page's own rules and words (validateCalculatorInputs).
  { fields: ["inputs"], rule: "each amount in inputs is a number written as text, e.g. 1234.56" },
);

export const reportBodySchema = z.strictObject({
  inputs: inputsSchema,
  email: emailSchema.describe("Where the report goes"),
  captchaToken: z
    .string()
    .max(4096)
    .nullable()
    .describe("The reCAPTCHA response token; required when the server has a RECAPTCHA_SECRET"),
  language: z.enum(REPORT_LANGUAGES).describe("The language of the e-mail"),
});
export type ReportBody = z.infer<typeof reportBodySchema>;

export const reportSentSchema = z.object({ status: z.literal("sent") });

/** 400, 429, and the failures of the services the report depends on (mail, captcha). */
export const reportErrorResponses = {
  ...errorResponses(400, 429),
  502: errorBodySchema,
  503: errorBodySchema,
};
