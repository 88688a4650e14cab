import { EditOutlined } from "@ant-design/icons";
import { Button, Space, Table } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { ModuleList } from "../../app/kit/module-list";
import { helpArticles, type HelpArticleDto } from "../../shared/modules/help-articles";
import { MoveButtons, PublishButton } from "./changes";
import { helpEditorPath } from "./paths";

/** Content Management (12): the generated list, with each article's order, publication and editor. */
export default function HelpArticleList() {
  const { t } = useTranslation("helpArticle");
  const navigate = useNavigate();
  return (
    <ModuleList
      module={helpArticles}
      extraColumns={
        <Table.Column<HelpArticleDto>
          key="actions"
          title={t("list.actions")}
          fixed="right"
          width={260}
          render={(_, row) => (
            <Space size={4}>
              <MoveButtons row={row} />
              <Button
                size="small"
                icon={<EditOutlined aria-hidden />}
                aria-label={t("list.editNamed", { name: row.titleEn })}
                onClick={() => navigate(helpEditorPath(row.id))}
              >
                {t("list.edit")}
              </Button>
              <PublishButton row={row} size="small" />
            </Space>
          )}
        />
      }
    />
  );
}
