import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

interface StatusPageProps {
  /** 403: not permitted; 404: nothing there. */
  status: "403" | "404";
  title: string;
  description?: string;
  /** The one way on: its words and where it leads. */
  action: { label: string; to: string };
}

/**
 * A page in place of one that cannot be shown (a path that names nothing, a page not permitted, a
 * record that does not exist): what happened, as the page's `<h1>`, and one way on.
 */
export function StatusPage({ status, title, description, action }: StatusPageProps) {
  const navigate = useNavigate();
  return (
    <Result
      status={status}
      title={<h1 style={{ fontSize: "inherit", margin: 0 }}>{title}</h1>}
      subTitle={description}
      extra={
        <Button type="primary" onClick={() => navigate(action.to)}>
          {action.label}
        </Button>
      }
    />
  );
}

/**
 * A console-wide status page in the `common` words (`<words>.title`, `<words>.description`), its
 * way on back to the dashboard.
 */
export function ConsoleStatusPage({
  status,
  words,
}: {
  status: StatusPageProps["status"];
  words: "forbidden" | "notFound";
}) {
  const { t } = useTranslation("common");
  return (
    <StatusPage
      status={status}
      title={t(`${words}.title`)}
      description={t(`${words}.description`)}
      action={{ label: t("notFound.backHome"), to: "/dashboard" }}
    />
  );
}

/** The id a shell page's query parameter names (`?id=invoice&settlement=12`), else undefined. */
export function idParam(search: string, name: string): number | undefined {
  const raw = new URLSearchParams(search).get(name) ?? "";
  return /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : undefined;
}
