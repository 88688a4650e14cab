import { useTranslation } from "react-i18next";

import { ModuleShow } from "../../app/kit/generated-show";
import { helpArticles, type HelpArticleDto } from "../../shared/modules/help-articles";
import { BodyPreviews } from "../content/previews";
import { PublishButton } from "./changes";

/**
 * An article: its facts, publish or take back, its preview in both languages and its history
 * (Edit opens the full-page editor).
 */
export default function HelpArticleShow() {
  useTranslation("helpArticle");
  return (
    <ModuleShow
      module={helpArticles}
      headerExtra={(row, refetch) => <PublishButton row={row as HelpArticleDto} onDone={refetch} />}
      after={(row) => <BodyPreviews row={row} />}
    />
  );
}
