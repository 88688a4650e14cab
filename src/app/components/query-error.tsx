import { ReloadOutlined } from "@ant-design/icons";
import { Alert, Button } from "antd";
import { useTranslation } from "react-i18next";
import { translateApiError } from "../../providers/errors";

type QueryErrorProps = {
  /** What failed to load (defaults to a generic line). */
  title?: string;
} & (
  | { error: unknown; onRetry: () => void }
  /** A query that failed: its error, and Retry reads it again. */
  | { query: { error: unknown; refetch: () => unknown } }
);

/** The error state of every list and detail view: what went wrong, and a way to try again. */
export function QueryError(props: QueryErrorProps) {
  const { t } = useTranslation("common");
  const { error, onRetry } =
    "query" in props
      ? { error: props.query.error, onRetry: () => void props.query.refetch() }
      : props;
  return (
    <Alert
      type="error"
      showIcon
      message={props.title ?? t("loadFailed")}
      description={translateApiError(error, t)}
      action={
        <Button icon={<ReloadOutlined aria-hidden />} onClick={onRetry}>
          {t("retry")}
        </Button>
      }
    />
  );
}
