import { CheckOutlined, DownloadOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { saveBlob } from "../components/download";
import { CopyButton } from "./copy-button";

/**
 * Ten recovery codes, shown this once (the server keeps only their hashes): to copy, to download
 * as a text file, and closed by the administrator saying they saved them.
 */
export function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const { t } = useTranslation("security");
  const { token } = theme.useToken();
  const text = `${codes.join("\n")}\n`;
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ fontSize: token.fontSizeLG, margin: 0 }}>
        {t("codes.title")}
      </Typography.Title>
      <Alert type="warning" showIcon message={t("codes.note")} description={t("codes.noteBody")} />
      <ol
        aria-label={t("codes.listLabel")}
        style={{
          display: "grid",
          gridTemplateColumns: "repeat(auto-fill, minmax(13.5em, 1fr))",
          gap: "4px 24px",
          margin: 0,
          paddingInlineStart: "2.2em",
          fontFamily: token.fontFamilyCode,
          fontSize: token.fontSizeLG,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <Flex gap={8} wrap>
        <CopyButton text={text} label={t("codes.copyAll")} />
        <Button
          icon={<DownloadOutlined aria-hidden />}
          onClick={() => saveBlob(new Blob([text], { type: "text/plain" }), t("codes.fileName"))}
        >
          {t("codes.download")}
        </Button>
        <Button type="primary" icon={<CheckOutlined aria-hidden />} onClick={onSaved}>
          {t("codes.saved")}
        </Button>
      </Flex>
    </Flex>
  );
}
