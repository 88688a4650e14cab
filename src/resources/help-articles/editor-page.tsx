import {
  useCreate,
  useNotification,
  useOne,
  useUpdate,
  useWarnAboutChange,
  type HttpError,
} from "@refinedev/core";
import { Button, Col, Flex, Form, Input, Row, Skeleton } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";

import { BackButton, PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { QueryError } from "../../app/components/query-error";
import { Refusal } from "../../app/components/refusal";
import { idParam, StatusPage } from "../../app/components/status-page";
import { checkForm, FormSelect, inputRule } from "../../app/kit/form";
import { RichText } from "../../app/kit/rich-text";
import { fieldLabel, valueLabel } from "../../app/kit/texts";
import { ForbiddenPage } from "../../app/pages/forbidden";
import { ModuleTexts } from "../../app/module-texts";
import { canAccess } from "../../providers/access-control";
import { useCurrentAdmin } from "../../providers/current-admin";
import { decisionErrorText } from "../../app/kit/decision";
import { useRecordVersion, VersionConflictDialog } from "../../app/kit/version-conflict";
import { toApiError } from "../../providers/errors";
import { HTML_LANG } from "../../shared/language";
import { CONTENT_LANGUAGES } from "../../shared/modules/content";
import {
  HELP_CATEGORIES,
  helpArticles,
  type HelpArticleBody,
  type HelpArticleDto,
} from "../../shared/modules/help-articles";

const decl = helpArticles.create!;
type Values = Partial<HelpArticleBody>;

/**
 * The full-page editor of help articles: the shell page `?id=create-edit-help-centre-editor`
 * (a new article) and `…&article={id}` (that article). Without Content Management (12), the
 * not-permitted page.
 */
export default function HelpEditorPage() {
  const admin = useCurrentAdmin();
  const { search } = useLocation();
  if (admin && !canAccess(admin, helpArticles.permission)) return <ForbiddenPage />;
  const raw = new URLSearchParams(search).get("article");
  const id = idParam(search, "article");
  return (
    <ModuleTexts>
      {raw !== null && id === undefined ? (
        <MissingArticle />
      ) : id === undefined ? (
        <ArticleEditor key="new" />
      ) : (
        <LoadedEditor key={id} id={id} />
      )}
    </ModuleTexts>
  );
}

function MissingArticle() {
  const { t } = useTranslation("helpArticle");
  return (
    <StatusPage
      status="404"
      title={t("editor.notFound")}
      action={{ label: t("editor.toList"), to: helpArticles.paths.list }}
    />
  );
}

function LoadedEditor({ id }: { id: number }) {
  const { t } = useTranslation("helpArticle");
  const { query, result } = useOne<HelpArticleDto, HttpError>({
    resource: helpArticles.name,
    id,
    errorNotification: false,
  });
  if (query.isError) {
    if (toApiError(query.error).statusCode === 404) return <MissingArticle />;
    return <QueryError query={query} title={t("show.loadFailed")} />;
  }
  if (!result) return <Skeleton active />;
  return <ArticleEditor article={result} />;
}

function ArticleEditor({ article }: { article?: HelpArticleDto }) {
  const { t } = useTranslation(["helpArticle", "kit", "errors"]);
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const { open } = useNotification();
  const { setWarnWhen } = useWarnAboutChange();
  const [refusal, setRefusal] = useState<string>();
  const { mutateAsync: create, mutation: creating } = useCreate<HelpArticleDto, HttpError>();
  const { mutateAsync: update, mutation: updating } = useUpdate<HelpArticleDto, HttpError>();
  // Record versions (docs/versions.md): a save is based on the article as the editor opened it.
  const version = useRecordVersion(helpArticles, article?.id ?? 0);
  useEffect(() => {
    if (article) version.basedOn(article as unknown as Record<string, unknown>);
  }, [article, version]);
  // Leaving the editor, however, ends its warning.
  useEffect(() => () => setWarnWhen(false), [setWarnWhen]);
  // Once saved, the page leaves after the warning is off (the next render), so it is not asked.
  const [leaveTo, setLeaveTo] = useState<string>();
  useEffect(() => {
    if (leaveTo === undefined) return undefined;
    const timer = setTimeout(() => navigate(leaveTo), 0);
    return () => clearTimeout(timer);
  }, [leaveTo, navigate]);

  const initialValues: Values = article
    ? {
        category: article.category,
        titleEn: article.titleEn,
        titleZh: article.titleZh,
        bodyEn: article.bodyEn,
        bodyZh: article.bodyZh,
      }
    : {};
  const back = article ? `${helpArticles.paths.show}/${article.id}` : helpArticles.paths.list;
  const label = (key: string) => fieldLabel(t, helpArticles, key);

  const save = async (values: Values, checked?: Record<string, unknown>) => {
    const body =
      checked ?? checkForm(t, helpArticles, decl, form, values as Record<string, unknown>);
    if (!body) return;
    setRefusal(undefined);
    version.sent(body);
    try {
      const saved = article
        ? await update({
            resource: helpArticles.name,
            id: article.id,
            values: body,
            meta: { headers: version.headers() },
            successNotification: false,
            errorNotification: false,
          })
        : await create({
            resource: helpArticles.name,
            values: body,
            successNotification: false,
            errorNotification: false,
          });
      setWarnWhen(false);
      open?.({ type: "success", message: t("editor.saved", { name: body.titleEn }) });
      setLeaveTo(`${helpArticles.paths.show}/${saved.data.id}`);
    } catch (error) {
      if (!version.refused(error)) setRefusal(decisionErrorText(t, helpArticles, error));
    }
  };

  return (
    <>
      {version.conflict && (
        <VersionConflictDialog
          module={helpArticles}
          conflict={version.conflict.data}
          based={version.conflict.based}
          yours={version.conflict.yours}
          onApply={() => {
            const { body } = version.moveOn();
            if (body) void save({}, body);
          }}
          onDiscard={() => {
            const { current } = version.moveOn();
            form.setFieldsValue(
              Object.fromEntries(
                Object.keys(initialValues).map((key) => [key, current[key]]),
              ) as Values,
            );
          }}
        />
      )}
      <PageHeader
        title={article ? t("editor.editTitle", { name: article.titleEn }) : t("editor.newTitle")}
        back={<BackButton label={t("editor.back")} onClick={() => navigate(back)} />}
      />
      <Panel>
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={initialValues}
          onValuesChange={() => {
            setRefusal(undefined);
            setWarnWhen(true);
          }}
          onFinish={(values) => void save(values)}
        >
          <Form.Item
            name="category"
            label={label("category")}
            required
            rules={[inputRule(t, helpArticles, decl, "category")]}
          >
            <FormSelect
              style={{ maxWidth: 320 }}
              options={HELP_CATEGORIES.map((value) => ({
                value,
                label: valueLabel(t, helpArticles, "category", value),
              }))}
            />
          </Form.Item>
          <Row gutter={24}>
            {CONTENT_LANGUAGES.map(({ language, suffix }) => (
              <Col key={language} xs={24} xl={12}>
                <section
                  lang={HTML_LANG[language]}
                  aria-label={t(`kit:richText.language.${language}`)}
                >
                  <Form.Item
                    name={`title${suffix}`}
                    label={label(`title${suffix}`)}
                    required
                    rules={[inputRule(t, helpArticles, decl, `title${suffix}`)]}
                  >
                    <Input autoComplete="off" />
                  </Form.Item>
                  <Form.Item
                    name={`body${suffix}`}
                    label={label(`body${suffix}`)}
                    required
                    rules={[inputRule(t, helpArticles, decl, `body${suffix}`)]}
                  >
                    <RichText
                      collection={helpArticles.collection}
                      label={label(`body${suffix}`)}
                      lang={HTML_LANG[language]}
                    />
                  </Form.Item>
                </section>
              </Col>
            ))}
          </Row>
          {refusal && (
            <Refusal title={t("editor.failed")} reason={refusal} style={{ marginBottom: 16 }} />
          )}
          <Flex gap={8}>
            <Button
              type="primary"
              htmlType="submit"
              loading={creating.isPending || updating.isPending}
            >
              {t("editor.save")}
            </Button>
            <Button onClick={() => navigate(back)}>{t("editor.cancel")}</Button>
          </Flex>
        </Form>
      </Panel>
    </>
  );
}
