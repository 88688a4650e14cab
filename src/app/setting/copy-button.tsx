import { CopyOutlined } from "@ant-design/icons";
import { App, Button } from "antd";
import { useTranslation } from "react-i18next";

/**
 * Puts `text` on the clipboard, and says whether it went. Browsers refuse the clipboard outside a
 * secure page or without permission: the text stays on screen to be selected by hand.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation("security");
  const { message } = App.useApp();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t("copy.done"));
    } catch {
      void message.error(t("copy.failed"));
    }
  };
  return (
    <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
      {label}
    </Button>
  );
}
