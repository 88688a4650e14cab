/** Help Centre's articles: the kit's list, record and forms, and the module's own routes. */
import { helpArticles } from "../../../src/shared/modules/help-articles";
import { helpArticles as articles } from "../../db/schema";
import { adminNameOf, bindModule } from "../../kit/bind";
import { helpArticleEndpoints } from "./endpoints";
import { createArticle, editArticle } from "./rules";

export const helpArticlesModule = bindModule(helpArticles, {
  table: articles,
  columns: { authorName: adminNameOf(articles.authorId) },
  create: createArticle,
  edit: editArticle,
  endpoints: helpArticleEndpoints,
});
