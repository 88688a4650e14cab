import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import enUS from "../../locales/en-US/calculator.json";
import {
  validateCalculatorInputs,
  type CalculatorField,
  type CalculatorFieldError,
} from "../../src/shared/calculator/inputs";
import { HttpError } from "../errors";
import { renderReportEmail } from "../mail/report-email";
import { verifyCaptcha } from "../report/captcha";
import { recipientPseudonym, reportLimits } from "../report/limits";
import {
  reportBodySchema,
  reportErrorResponses,
  reportSentSchema,
} from "../../src/shared/schemas/report";
import type { RouteDeps } from "../http/deps";

export const MAIL_FAILED_MESSAGE = "The report could not be sent, please try again later";

/** 400 naming each bad field, worded as the page words it (API messages are English). */
function invalidInputs(errors: Partial<Record<CalculatorField, CalculatorFieldError>>) {
  const issues = Object.entries(errors).map(([field, error]) => ({
    path: `inputs.${field}`,
    message: enUS.errors[error as CalculatorFieldError],
  }));
  const first = issues[0] ?? { path: "inputs", message: "Invalid value" };
  return new HttpError(400, `Invalid ${first.path}: ${first.message}`, "VALIDATION_ERROR", {
    issues,
  });
}

/** What may be logged about a failed delivery: never the message, which can quote the address. */
function mailFailure(error: unknown) {
  const { code, responseCode, command } = (error ?? {}) as Record<string, unknown>;
  return { code, responseCode, command };
}

const DESCRIPTION = `Recomputes the ten ratios from the figures the visitor typed (the page's own rules and
formulas) and e-mails the report, HTML with a plain-text part, in the chosen language.
Errors: 400 VALIDATION_ERROR (data.issues name each field, e.g. inputs.carLoanBalance);
400 CAPTCHA_FAILED (token missing while the server checks captchas, or rejected by siteverify);
503 CAPTCHA_UNAVAILABLE (siteverify could not be asked: try again later); 429 RATE_LIMITED
(data.limit "ip" or "email", data.retryAfterSeconds, Retry-After header); 502 MAIL_FAILED (the
mail server refused or could not be reached). The visitor's figures, name and address are never logged.`;

/** POST /api/calculator/report: the public calculator's "Email Me My Report". */
export const reportRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { config, mailer }) => {
  const limits = reportLimits(app, config);
  const captcha = { secret: config.recaptchaSecret, verifyUrl: config.recaptchaVerifyUrl };

  app.post(
    "/api/calculator/report",
    {
      config: { access: "public" },
      // Before the body is read: a flood from one address costs no parsing, siteverify or SMTP.
      onRequest: (request, reply) => limits.perIp(request, reply),
      schema: {
        tags: ["calculator"],
        summary: "E-mail the visitor's financial ratios report",
        description: DESCRIPTION,
        security: [],
        body: reportBodySchema,
        response: { 202: reportSentSchema, ...reportErrorResponses },
      },
    },
    async (request, reply) => {
      const { inputs, email, captchaToken, language } = request.body;
      const validated = validateCalculatorInputs(inputs);
      if (!validated.ok) throw invalidInputs(validated.errors);
      await verifyCaptcha(captcha, captchaToken, request.ip, request.log);
      // After the captcha, so nobody can use up someone else's allowance by naming their address.
      await limits.perRecipient(request, reply);

      const report = renderReportEmail(language, validated.name, validated.amounts);
      const event = {
        event: "calculator.report",
        recipient: recipientPseudonym(config.jwtSecret, email),
        language,
        transport: mailer.kind,
      };
      try {
        await mailer.send({ to: email, ...report });
      } catch (error) {
        request.log.error({ ...event, failure: mailFailure(error) }, "calculator report not sent");
        throw new HttpError(502, MAIL_FAILED_MESSAGE, "MAIL_FAILED");
      }
      request.log.info(event, "calculator report sent");
      return reply.status(202).send({ status: "sent" as const });
    },
  );
};
