import { Button, Popconfirm } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface ConfirmButtonProps {
  children: ReactNode;
  /** The button's name when its text alone would not say what it acts on. */
  label?: string;
  icon?: ReactNode;
  title: ReactNode;
  description: ReactNode;
  okText: string;
  /** Red button and red confirmation: something goes away. */
  danger?: boolean;
  loading?: boolean;
  onConfirm: () => void;
}

/** A button whose action happens only once the administrator confirms what it will do. */
export function ConfirmButton({
  children,
  label,
  icon,
  title,
  description,
  okText,
  danger = false,
  loading = false,
  onConfirm,
}: ConfirmButtonProps) {
  const { t } = useTranslation("common");
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={okText}
      cancelText={t("cancel")}
      okButtonProps={{ danger }}
      onConfirm={onConfirm}
    >
      <Button danger={danger} icon={icon} loading={loading} aria-label={label}>
        {children}
      </Button>
    </Popconfirm>
  );
}
