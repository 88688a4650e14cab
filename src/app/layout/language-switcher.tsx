import { GlobalOutlined } from "@ant-design/icons";
import { Button, Dropdown } from "antd";
import { useTranslation } from "react-i18next";
import {
  HTML_LANG,
  LANGUAGES,
  changeLanguage,
  currentLanguage,
  isLanguage,
  type Language,
} from "../../providers/i18n";

/** Each language is named in itself, so anyone can find their own whatever is showing. */
export const LANGUAGE_NAMES: Record<Language, string> = { "en-US": "English", "cn-ZH": "中文" };

/**
 * Switches the interface language at once and remembers it on this device. Usable before login
 * (the login page) as well as in the console header.
 */
export function LanguageSwitcher() {
  const { t } = useTranslation("common");
  const language = currentLanguage();

  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((code) => ({
          key: code,
          label: <span lang={HTML_LANG[code]}>{LANGUAGE_NAMES[code]}</span>,
        })),
        onClick: ({ key }) => {
          if (isLanguage(key)) void changeLanguage(key);
        },
      }}
    >
      {/* Named "Language"/"语言" by its visible text (no aria-label that could drift from it);
          the menu marks the current language as selected. */}
      <Button type="text" icon={<GlobalOutlined aria-hidden />}>
        {t("language.label")}
      </Button>
    </Dropdown>
  );
}
