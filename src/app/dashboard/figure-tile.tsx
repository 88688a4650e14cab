import { RightOutlined } from "@ant-design/icons";
import { Flex, Statistic, theme } from "antd";
import type { CSSProperties } from "react";
import { Link } from "react-router";

import { formatRinggit } from "../../shared/money";

interface FigureTileProps {
  /** The section the figure belongs to, so a link reads "Administrators Total 12". */
  section: string;
  label: string;
  value: number;
  /** The list behind the figure; the tile becomes a link to it. */
  to?: string;
  /** An amount in sen, shown in ringgit. */
  money?: boolean;
}

/** A headline number; when its list exists the whole tile is one link with a readable name. */
export function FigureTile({ section, label, value, to, money }: FigureTileProps) {
  const shown = money ? formatRinggit(value) : value;
  const { token } = theme.useToken();
  const box: CSSProperties = {
    display: "block",
    height: "100%",
    padding: 12,
    color: "inherit",
    border: `1px solid ${token.colorBorderSecondary}`,
    borderRadius: token.borderRadius,
  };
  if (!to) {
    return (
      <div style={box}>
        <Statistic title={label} value={shown} />
      </div>
    );
  }
  return (
    <Link to={to} style={box}>
      <span className="visually-hidden">{section} </span>
      <Flex justify="space-between" align="center">
        <Statistic title={label} value={shown} />
        <RightOutlined aria-hidden style={{ fontSize: 12, color: token.colorPrimary }} />
      </Flex>
    </Link>
  );
}
