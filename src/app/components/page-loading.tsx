import { Flex, Spin } from "antd";
import { useTranslation } from "react-i18next";

/** Shown inside the layout while a page's chunk or first data arrives. */
export function PageLoading() {
  const { t } = useTranslation("common");
  return (
    <Flex justify="center" align="center" style={{ minHeight: 240 }}>
      <Spin size="large" tip={t("loading")}>
        <div style={{ width: 120, height: 80 }} />
      </Spin>
    </Flex>
  );
}
