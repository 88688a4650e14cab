import { ReloadOutlined } from "@ant-design/icons";
import { Alert, Button } from "antd";
import { useTranslation } from "react-i18next";
import { translateApiError } from "../../providers/errors";

interface QueryErrorProps {
  error: unknown;
  onRetry: () => void;
  /** What failed to load (defaults to a generic line). */
  title?: string;
}

/** The error state of every list and detail view: what went wrong, and a way to try again. */
export function QueryError({ error, onRetry, title }: QueryErrorProps) {
  const { t } = useTranslation("common");
  return (
    <Alert
      type="error"
      showIcon
      message={title ?? t("loadFailed")}
      description={translateApiError(error, t)}
      action={
        <Button icon={<ReloadOutlined aria-hidden />} onClick={onRetry}>
          {t("retry")}
        </Button>
      }
    />
  );
}
