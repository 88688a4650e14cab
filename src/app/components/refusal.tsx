import { Alert } from "antd";
import type { CSSProperties, ReactNode } from "react";

/**
 * A refusal where the staff member acted (a form, a dialog): what failed and, when known, why
 * (the server's answer in their words). Announced as it appears.
 */
export function Refusal({
  title,
  reason,
  style,
}: {
  title: ReactNode;
  reason?: ReactNode;
  style?: CSSProperties;
}) {
  return (
    <Alert type="error" showIcon role="alert" message={title} description={reason} style={style} />
  );
}
