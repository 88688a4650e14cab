import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";

interface SearchBoxProps {
  /** The resource's namespace: it provides `list.search`, `list.searchPlaceholder`, `list.searchButton`. */
  namespace: string;
  onSearch: () => void;
}

/**
 * The text search of every back-office list: the form field `q`, which the data provider sends
 * as the aggregation contract's `$search`.
 */
export function SearchBox({ namespace, onSearch }: SearchBoxProps) {
  const { t } = useTranslation(namespace);
  return (
    <Form.Item name="q" noStyle>
      <Input.Search
        placeholder={t("list.searchPlaceholder")}
        aria-label={t("list.search")}
        enterButton={t("list.searchButton")}
        allowClear
        onSearch={onSearch}
        style={{ maxWidth: 360, marginInlineEnd: 12 }}
      />
    </Form.Item>
  );
}
