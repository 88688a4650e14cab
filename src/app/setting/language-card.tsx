import { useCustomMutation, useGetIdentity, useNotification } from "@refinedev/core";
import { Button, Form, Radio } from "antd";
import i18next from "i18next";
import { useTranslation } from "react-i18next";
import type { AdminDto } from "../../providers/api-types";
import { setCurrentAdmin } from "../../providers/current-admin";
import {
  HTML_LANG,
  LANGUAGES,
  changeLanguage,
  currentLanguage,
  type Language,
} from "../../providers/i18n";
import { LANGUAGE_NAMES } from "../layout/language-switcher";
import { codedErrorNotification } from "../components/notifications";
import { Panel } from "../components/panel";

export const ACCOUNT_PATH = "/api/account/admin";

/**
 * The account's language: saved on the server (for anything it writes to this administrator)
 * and switched on this screen at once.
 */
export function LanguageCard() {
  const { t } = useTranslation("setting");
  const { data: admin, refetch } = useGetIdentity<AdminDto>();
  const [form] = Form.useForm<{ language: Language }>();
  const { mutate, mutation } = useCustomMutation<AdminDto>();
  const { open } = useNotification();

  const submit = ({ language }: { language: Language }) =>
    mutate(
      {
        url: ACCOUNT_PATH,
        method: "patch",
        values: { language },
        // Said once the new language is in force, so "saved" reads in the language chosen.
        successNotification: false,
        errorNotification: codedErrorNotification(t, t("language.failed")),
      },
      {
        onSuccess: async ({ data }) => {
          setCurrentAdmin(data);
          await changeLanguage(language);
          open?.({ type: "success", message: i18next.t("setting:language.saved") });
          void refetch();
        },
      },
    );

  return (
    <Panel title={t("language.title")}>
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ language: admin?.language ?? currentLanguage() }}
      >
        <Form.Item name="language" label={t("language.label")}>
          <Radio.Group>
            {LANGUAGES.map((code) => (
              <Radio key={code} value={code}>
                <span lang={HTML_LANG[code]}>{LANGUAGE_NAMES[code]}</span>
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t("language.submit")}
        </Button>
      </Form>
    </Panel>
  );
}
