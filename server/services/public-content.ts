/**
 * What the modules that write content for the apps (help articles, merchant announcements) serve
 * alike: a public read without a session, cacheable for a minute and revalidated by its ETag, and
 * the upload of an image for a body under the module's permission.
 */
import type { z } from "zod";

import type { ModuleDecl } from "../../src/shared/kit/module";
import { errorResponses } from "../../src/shared/schemas/common";
import { contentImageUpload } from "../content/images";
import { publicCaching, sendWithEtag } from "../content/public-cache";
import type { Db } from "../db";
import type { ZodApp } from "../kit/routes/route";

/** A public read: `GET url`, answering `load` of the validated query. */
export interface PublicRead<Query extends z.ZodType, Answer extends z.ZodType> {
  url: string;
  /** Followed by "(no session; ETag)". */
  summary: string;
  /** Followed by how the answer may be cached. */
  description: string;
  querystring: Query;
  answer: Answer;
  load(query: z.output<Query>): Promise<z.input<Answer>>;
}

/** Registers `read` and the image upload of `module` (whose permission it needs). */
export async function registerPublicContent<Query extends z.ZodType, Answer extends z.ZodType>(
  app: ZodApp,
  db: Db,
  module: Pick<ModuleDecl, "collection" | "permission" | "thing">,
  read: PublicRead<Query, Answer>,
): Promise<void> {
  app.get(
    read.url,
    {
      config: { access: "public" },
      schema: {
        tags: ["public"],
        summary: `${read.summary} (no session; ETag)`,
        description: `${read.description} Cacheable for a minute; send If-None-Match with the ETag to get 304.`,
        security: [],
        // Unresolved generics here would hide the handler's types: the read's own say what it gets.
        querystring: read.querystring as z.ZodType,
        response: { 200: read.answer as z.ZodType, ...errorResponses(400) },
      },
      onSend: publicCaching,
    },
    async (request, reply) =>
      sendWithEtag(request, reply, await read.load(request.query as z.output<Query>)),
  );

  await app.register(
    contentImageUpload({
      collection: module.collection,
      permission: module.permission!,
      thing: module.thing.one,
    }),
    { db },
  );
}
