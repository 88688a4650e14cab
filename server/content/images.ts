import fastifyMultipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { z } from "zod";

import {
  CONTENT_IMAGE_PATH,
  contentImageSchema,
  IMAGE_FIELD,
  IMAGE_MAX_BYTES,
  type ContentImage,
  type ImageType,
} from "../../src/shared/modules/content";
import type { PermissionCode } from "../../src/shared/permissions";
import { errorResponses } from "../../src/shared/schemas/common";
import { recordAudit } from "../audit";
import { currentAdmin } from "../auth/access";
import type { Db } from "../db";
import { contentImages } from "../db/schema";
import { HttpError, notFound } from "../errors";
import { ONE_FILE_LIMIT, secondFileRefusal, streamedBodyCompiler } from "../uploads/http";
import { newDocumentId } from "../uploads/storage";

/** The bytes each image type starts with (WebP: `RIFF`, four bytes of size, `WEBP`). */
const SIGNATURES: ReadonlyArray<{ type: ImageType; test: (head: Buffer) => boolean }> = [
  { type: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: "image/png",
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10])),
  },
  { type: "image/gif", test: (b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString("latin1")) },
  {
    type: "image/webp",
    test: (b) =>
      b.subarray(0, 4).toString("latin1") === "RIFF" &&
      b.subarray(8, 12).toString("latin1") === "WEBP",
  },
];

/** Which image type the bytes are, whatever the name or the declared type says. */
export function sniffImage(content: Buffer): ImageType | undefined {
  return SIGNATURES.find(({ test }) => test(content))?.type;
}

const refuse = (status: number, code: string, message: string) =>
  new HttpError(status, message, code);
const notOneImage = () =>
  refuse(400, "INVALID_IMAGE", `Send one image in the "${IMAGE_FIELD}" field`);

/** The parser's errors for the form's shape, in the API's words (a second image: refused). */
function formError(error: unknown): HttpError {
  if ((error as { code?: string }).code === "FST_INVALID_MULTIPART_CONTENT_TYPE") {
    return refuse(415, "UNSUPPORTED_MEDIA_TYPE", "Send the image as multipart/form-data");
  }
  return (
    secondFileRefusal(error, IMAGE_FIELD) ??
    refuse(400, "INVALID_IMAGE", "The upload is not one image in a well-formed form")
  );
}

/**
 * Reads the one image of an upload, refusing anything else before a byte is stored. The whole
 * form is read, so a second image is refused rather than dropped (secondFileRefusal).
 */
async function readImage(request: FastifyRequest) {
  let read: { content: Buffer; truncated: boolean } | undefined;
  let problem: HttpError | undefined;
  try {
    const limits = { ...ONE_FILE_LIMIT, fileSize: IMAGE_MAX_BYTES, fields: 0 };
    for await (const part of request.parts({ limits })) {
      if (part.type === "field" || part.fieldname !== IMAGE_FIELD) {
        problem ??= notOneImage();
        if (part.type === "file") part.file.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      read = { content: Buffer.concat(chunks), truncated: part.file.truncated };
    }
  } catch (error) {
    problem ??= formError(error);
  }
  if (problem) throw problem;
  if (!read) throw notOneImage();
  if (read.truncated) {
    throw refuse(
      413,
      "IMAGE_TOO_LARGE",
      `The image is larger than ${IMAGE_MAX_BYTES / 1024 / 1024} MB`,
    );
  }
  const type = sniffImage(read.content);
  if (!type) {
    throw refuse(400, "INVALID_IMAGE", "The file is not an image (JPEG, PNG, GIF or WebP)");
  }
  return { content: read.content, type };
}

/** The upload's form, as OpenAPI shows it (the handler reads it as a stream). */
const imageFormSchema = z
  .object({ [IMAGE_FIELD]: z.string().describe("The image file (binary)") })
  .meta({ id: "ContentImageForm" });

const imageParams = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{32}$/, "Not an image id"),
});

/**
 * `POST /api/<collection>/images` for a module whose bodies show images, under that module's
 * permission: a plugin of its own, so that only this route accepts a multipart body. Each such
 * module registers it among its endpoints.
 */
export function contentImageUpload({
  collection,
  permission,
  thing,
}: {
  collection: string;
  permission: PermissionCode;
  thing: string;
}): FastifyPluginAsyncZod<{ db: Db }> {
  return async (app, { db }) => {
    await app.register(fastifyMultipart, { throwFileSizeLimit: false });
    app.post(
      `/api/${collection}/images`,
      {
        config: { access: { permission, thing: `${thing} Image` } },
        // The file is read as a stream by the handler: the body schema documents the form only.
        validatorCompiler: streamedBodyCompiler,
        schema: {
          body: imageFormSchema,
          tags: [collection],
          summary: `Upload an image for a ${thing.toLowerCase()}'s body (multipart, field "${IMAGE_FIELD}")`,
          consumes: ["multipart/form-data"],
          description:
            `JPEG, PNG, GIF or WebP by content, at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB. ` +
            "One image per upload: a second is refused (400 TOO_MANY_FILES).",
          response: {
            201: contentImageSchema,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request, reply) => {
        const actor = currentAdmin(request);
        const { content, type } = await readImage(request);
        const id = newDocumentId();
        await db.transaction(async (tx) => {
          await tx.insert(contentImages).values({
            id,
            contentType: type,
            size: content.length,
            content,
            uploadedBy: actor.id,
          });
          await recordAudit(tx, {
            adminId: actor.id,
            action: "content_image.upload",
            targetTable: "content_images",
            targetId: id,
            after: { contentType: type, size: content.length, for: collection },
          });
        });
        const image: ContentImage = {
          id,
          src: `/v1${CONTENT_IMAGE_PATH}/${id}`,
          contentType: type,
          size: content.length,
        };
        return reply.code(201).send(image);
      },
    );
  };
}

/**
 * `GET /api/public/content-images/{id}`: an image of a help article or an announcement without a
 * session (the wallet app shows them), cacheable for a year: an image never changes under its id.
 */
export const publicContentImageRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    `${CONTENT_IMAGE_PATH}/:id`,
    {
      config: { access: "public" },
      schema: {
        tags: ["content"],
        summary: "An image of a help article or an announcement (no session)",
        security: [],
        params: imageParams,
        response: {
          200: z.any().describe("The image, as its detected content type"),
          ...errorResponses(400, 404),
        },
      },
      onSend: async (_request, reply) => {
        if (reply.statusCode === 200) {
          reply.header("Cache-Control", "public, max-age=31536000, immutable");
        }
      },
    },
    async (request, reply) => {
      const [row] = await db
        .select({ type: contentImages.contentType, content: contentImages.content })
        .from(contentImages)
        .where(eq(contentImages.id, request.params.id));
      if (!row) throw notFound("Image");
      return reply
        .type(row.type)
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        .send(row.content);
    },
  );
};
