import { ArrowDownOutlined, ArrowUpOutlined } from "@ant-design/icons";
import { useInvalidate, useNotification } from "@refinedev/core";
import { Button, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { FORM_ERROR_KEY_PREFIX } from "../../app/components/notifications";
import { decisionErrorText } from "../../app/kit/decision";
import { ifMatchHeaders } from "../../app/kit/version-conflict";
import { http } from "../../providers/http";
import { helpArticles, type HelpArticleDto } from "../../shared/modules/help-articles";

type Verb = "publish" | "unpublish" | "up" | "down";

/** Sends one change of an article (publish, unpublish, move) and refreshes what shows it. */
function useArticleChange(onDone?: () => void) {
  const { t } = useTranslation(["helpArticle", "kit", "errors"]);
  const invalidate = useInvalidate();
  const { open } = useNotification();
  const [busy, setBusy] = useState<Verb>();
  const run = async (row: HelpArticleDto, verb: Verb) => {
    setBusy(verb);
    try {
      const path = verb === "up" || verb === "down" ? "move" : verb;
      const body = path === "move" ? { direction: verb } : undefined;
      // Based on the article as shown: one someone changed since is refused (409, the toast below).
      await http.post(`/api/${helpArticles.collection}/${row.id}/${path}`, body, {
        headers: ifMatchHeaders(helpArticles, row.id, row),
      });
      open?.({ type: "success", message: t(`changes.${verb}Done`, { name: row.titleEn }) });
      await invalidate({
        resource: helpArticles.name,
        invalidates: ["list", "detail"],
        id: row.id,
      });
      onDone?.();
    } catch (error) {
      // Refused: the article is shown as it is now (someone else's change, or a guard).
      void invalidate({ resource: helpArticles.name, invalidates: ["list", "detail"], id: row.id });
      open?.({
        // The console shows an error toast only when the screen that failed words it itself.
        key: `${FORM_ERROR_KEY_PREFIX}help-article-${verb}`,
        type: "error",
        message: t("changes.failed"),
        description: decisionErrorText(t, helpArticles, error),
      });
    } finally {
      setBusy(undefined);
    }
  };
  return { run, busy };
}

/** Publish a draft, or take a published article back. */
export function PublishButton({
  row,
  size = "middle",
  onDone,
}: {
  row: HelpArticleDto;
  size?: "small" | "middle";
  onDone?: () => void;
}) {
  const { t } = useTranslation("helpArticle");
  const { run, busy } = useArticleChange(onDone);
  const verb = row.status === "draft" ? "publish" : "unpublish";
  return (
    <Button
      size={size}
      type={verb === "publish" ? "primary" : "default"}
      loading={busy !== undefined}
      aria-label={t(`changes.${verb}Named`, { name: row.titleEn })}
      onClick={() => void run(row, verb)}
    >
      {t(`changes.${verb}`)}
    </Button>
  );
}

/** One place up or down within its category. */
export function MoveButtons({ row }: { row: HelpArticleDto }) {
  const { t } = useTranslation("helpArticle");
  const { run, busy } = useArticleChange();
  return (
    <Space.Compact size="small">
      <Button
        icon={<ArrowUpOutlined aria-hidden />}
        aria-label={t("changes.upNamed", { name: row.titleEn })}
        loading={busy === "up"}
        onClick={() => void run(row, "up")}
      />
      <Button
        icon={<ArrowDownOutlined aria-hidden />}
        aria-label={t("changes.downNamed", { name: row.titleEn })}
        loading={busy === "down"}
        onClick={() => void run(row, "down")}
      />
    </Space.Compact>
  );
}
