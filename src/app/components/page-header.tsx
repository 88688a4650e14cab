import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button, Flex, theme } from "antd";
import type { ReactNode } from "react";

interface PageHeaderProps {
  title: ReactNode;
  /** Actions on the right (create, edit, …). */
  extra?: ReactNode;
  /** A link back, shown before the title (detail and form pages). */
  back?: ReactNode;
}

/** The page's one `<h1>` with its actions, the same on every console page. */
export function PageHeader({ title, extra, back }: PageHeaderProps) {
  const { token } = theme.useToken();
  return (
    <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
      <Flex align="center" gap={8}>
        {back}
        <h1 style={{ fontSize: 22, fontWeight: 600, margin: 0, color: token.colorTextHeading }}>
          {title}
        </h1>
      </Flex>
      {extra && (
        <Flex gap={8} wrap>
          {extra}
        </Flex>
      )}
    </Flex>
  );
}

/** The arrow back of a detail or form page (PageHeader's `back`), named for screen readers. */
export function BackButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button
      type="text"
      icon={<ArrowLeftOutlined aria-hidden />}
      aria-label={label}
      onClick={onClick}
    />
  );
}
