import { theme } from "antd";
import type { CSSProperties, ReactNode } from "react";

interface PanelProps {
  /** Shown as the panel's `<h2>`. */
  title?: ReactNode;
  /** Actions beside the title. */
  extra?: ReactNode;
  children: ReactNode;
  style?: CSSProperties;
}

/**
 * A titled surface for a page section. Looks like antd's Card, without it: Card imports Tabs
 * and Skeleton, about 10 kB gzip the first screen would carry for a box with a heading.
 */
export function Panel({ title, extra, children, style }: PanelProps) {
  const { token } = theme.useToken();
  return (
    <section
      style={{
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        ...style,
      }}
    >
      {(title || extra) && (
        <div
          style={{
            display: "flex",
            alignItems: "center",
            justifyContent: "space-between",
            gap: 8,
            minHeight: 56,
            padding: `0 ${token.paddingLG}px`,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          {title && (
            <h2
              style={{
                margin: 0,
                fontSize: token.fontSizeLG,
                fontWeight: 600,
                color: token.colorTextHeading,
              }}
            >
              {title}
            </h2>
          )}
          {extra}
        </div>
      )}
      <div style={{ padding: token.paddingLG }}>{children}</div>
    </section>
  );
}
