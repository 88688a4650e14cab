/**
 * UCSI ID Management's import (28): the CSV template and the upload, read as a stream; the
 * checks and the linking are ./rules.ts and ./index.ts.
 */
import fastifyMultipart from "@fastify/multipart";
import { z } from "zod";

import {
  IMPORT_ROW_RESULTS,
  UCSI_IMPORT_FIELD,
  UCSI_IMPORT_MAX_BYTES,
  UCSI_IMPORT_MAX_ROWS,
  importResultSchema,
} from "../../../src/shared/modules/ucsi-ids";
import { errorResponses } from "../../../src/shared/schemas/common";
import { currentAdmin } from "../../auth/access";
import type { ModuleEndpoints } from "../../kit/bind";
import { badFile, IMPORT_TEMPLATE, importUcsiIds } from "./rules";
import {
  contentDisposition,
  ONE_FILE_LIMIT,
  secondFileRefusal,
  streamedBodyCompiler,
} from "../../uploads/http";

/** The plugin's errors for the file's size and the form's shape, in words staff can act on. */
function formError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE") {
    return badFile("Send the file as multipart/form-data", "UNSUPPORTED_MEDIA_TYPE", 415);
  }
  const secondFile = secondFileRefusal(error, UCSI_IMPORT_FIELD);
  if (secondFile) return secondFile;
  if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") {
    return badFile("Send one file and the dryRun field only", "VALIDATION_ERROR");
  }
  if (error instanceof Error && code === undefined && !("statusCode" in error)) {
    return badFile(`The multipart form is malformed (${error.message})`, "VALIDATION_ERROR");
  }
  return error;
}

const MAX_MB = UCSI_IMPORT_MAX_BYTES / 1024 / 1024;

/** The import's form, as OpenAPI shows it (the handler reads it as a stream). */
const importFormSchema = z
  .object({
    [UCSI_IMPORT_FIELD]: z.string().describe("The CSV file (binary)"),
    dryRun: z.enum(["true", "false"]).optional().describe("true (the default): check only"),
  })
  .meta({ id: "UcsiImportForm" });

/** `POST /api/ucsi-ids/import` and its template, under UCSI ID Management (28). */
export const ucsiIdEndpoints: ModuleEndpoints = async (app, { db }) => {
  await app.register(fastifyMultipart, {
    limits: {
      ...ONE_FILE_LIMIT,
      fileSize: UCSI_IMPORT_MAX_BYTES,
      fields: 2,
      fieldSize: 16,
      parts: 3,
    },
    throwFileSizeLimit: false,
  });

  app.get(
    "/api/ucsi-ids/import-template",
    {
      config: { thing: "UCSI ID Import Template" },
      schema: {
        tags: ["ucsi-ids"],
        summary: "The import file's template (CSV, UTF-8)",
        response: { 200: z.string(), ...errorResponses(401, 403) },
      },
    },
    async (_request, reply) =>
      reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", contentDisposition("ucsi-id-import-template.csv"))
        .send(IMPORT_TEMPLATE),
  );

  app.post(
    "/api/ucsi-ids/import",
    {
      config: { thing: "UCSI ID Import" },
      // The file is read as a stream by the handler: the body schema documents the form only.
      validatorCompiler: streamedBodyCompiler,
      schema: {
        tags: ["ucsi-ids"],
        consumes: ["multipart/form-data"],
        body: importFormSchema,
        summary: "Import links from a CSV file (ucsi_id,type,account_number), all or none",
        description:
          `multipart/form-data: \`${UCSI_IMPORT_FIELD}\` (UTF-8 CSV, at most ${MAX_MB} MB and ` +
          `${UCSI_IMPORT_MAX_ROWS} rows) and \`dryRun\` (true or false). Each row's result is ` +
          `one of ${IMPORT_ROW_RESULTS.join(", ")}. A dry run stores nothing; a real import ` +
          "stores every row or, when any row has a problem, none (400 IMPORT_REJECTED). One " +
          "file per upload: a second is refused (400 TOO_MANY_FILES).",
        response: { 200: importResultSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      let content: Buffer | undefined;
      let dryRun: string | undefined;
      let problem: unknown;
      try {
        for await (const part of request.parts()) {
          if (part.type === "field") {
            if (part.fieldname === "dryRun") dryRun = String(part.value);
            else problem ??= badFile(`Unknown field ${part.fieldname}`, "VALIDATION_ERROR");
            continue;
          }
          if (part.fieldname !== UCSI_IMPORT_FIELD) {
            problem ??= badFile(`The file goes in ${UCSI_IMPORT_FIELD}`, "VALIDATION_ERROR");
            part.file.resume();
            continue;
          }
          const chunks: Buffer[] = [];
          for await (const chunk of part.file) chunks.push(chunk as Buffer);
          if (part.file.truncated) {
            problem ??= badFile(`The file is larger than ${MAX_MB} MB`, "IMPORT_TOO_LARGE", 413, {
              maxMb: MAX_MB,
            });
          }
          content = Buffer.concat(chunks);
        }
      } catch (error) {
        problem ??= formError(error);
      }
      if (problem !== undefined) throw problem;
      if (!content || content.length === 0) {
        throw badFile(`Choose a CSV file (${UCSI_IMPORT_FIELD})`, "IMPORT_EMPTY");
      }
      if (dryRun !== undefined && dryRun !== "true" && dryRun !== "false") {
        throw badFile("dryRun must be true or false", "VALIDATION_ERROR");
      }
      return importUcsiIds(
        db,
        { content },
        { dryRun: dryRun !== "false", adminId: currentAdmin(request).id },
      );
    },
  );
};
