/**
 * What help articles and merchant announcements share: a title and a rich body in each console
 * language, the body's size limit, and the images their bodies may show (uploaded, kept by the
 * server, served publicly). Both sides import it: the editor refuses what the server refuses.
 */
import { z } from "zod";

import { safeText } from "../text";

/** A body's size limit, in bytes of UTF-8 as typed (before the server cleans it). */
export const BODY_MAX_BYTES = 200 * 1024;
export const TITLE_MAX_LENGTH = 200;

/** Images a body may show: JPEG, PNG, GIF or WebP, by their bytes, at most 2 MB. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
/** The multipart field of an image upload. */
export const IMAGE_FIELD = "image";

/** Where an uploaded image is served, without a session (relative to the API base). */
export const CONTENT_IMAGE_PATH = "/api/public/content-images";
/** The one image source a stored body may hold: an image this server keeps. */
export const CONTENT_IMAGE_SRC = /^\/v1\/api\/public\/content-images\/[0-9a-f]{32}$/;

const utf8 = new TextEncoder();
export const byteLength = (text: string) => utf8.encode(text).length;

/** A title as staff type it: one line, trimmed, 1–200 characters. */
export const titleSchema = safeText()
  .trim()
  .min(1, "Title is required")
  .max(TITLE_MAX_LENGTH, `Title must be at most ${TITLE_MAX_LENGTH} characters`);

/**
 * A body as the editor sends it (HTML): required, at most BODY_MAX_BYTES. The server cleans it
 * against its allow-list before storing it (server/content/sanitize.ts).
 */
export const richBodySchema = z
  .string()
  .min(1, "Body is required")
  .refine((html) => !html.includes("\u0000"), {
    message: "Body must not contain NUL characters",
  })
  .refine((html) => byteLength(html) <= BODY_MAX_BYTES, {
    message: `Body must be at most ${BODY_MAX_BYTES / 1024} kB`,
    params: { rule: "bodyTooLarge" },
  });

/** The console languages a body is written in, and the record's keys of each. */
export const CONTENT_LANGUAGES = [
  { language: "en-US", suffix: "En" },
  { language: "cn-ZH", suffix: "Zh" },
] as const;
export type ContentLanguage = (typeof CONTENT_LANGUAGES)[number]["language"];

/** The answer to an image upload: where the image is served from, to put in a body. */
export const contentImageSchema = z
  .object({ id: z.string(), src: z.string(), contentType: z.string(), size: z.number().int() })
  .meta({ id: "ContentImage" });
export type ContentImage = z.infer<typeof contentImageSchema>;
