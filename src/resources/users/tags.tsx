import { StarFilled, StopOutlined } from "@ant-design/icons";
import { Tag } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { STATUS_COLOURS } from "../../app/theme";
import type {
  ApprovalStatus,
  RiderVerificationStatus,
  UserRole,
  WalletStatus,
} from "../../providers/api-types";

type TagColours = { color: string; background: string; borderColor: string };

// Dark text on a light tint keeps every tag at 4.5:1 or better (antd's presets fall short).
const GREEN = STATUS_COLOURS.active;
const GREY = STATUS_COLOURS.disabled;
const RED = STATUS_COLOURS.banned;
const GOLD: TagColours = { color: "#614700", background: "#fffbe6", borderColor: "#ffe58f" };
const BLUE: TagColours = { color: "#003a8c", background: "#e6f4ff", borderColor: "#91caff" };
const CYAN: TagColours = { color: "#00474f", background: "#e6fffb", borderColor: "#87e8de" };
const PURPLE: TagColours = { color: "#391085", background: "#f9f0ff", borderColor: "#d3adf7" };
const ORANGE: TagColours = { color: "#873800", background: "#fff7e6", borderColor: "#ffd591" };
const MAGENTA: TagColours = { color: "#780650", background: "#fff0f6", borderColor: "#ffadd2" };

// `satisfies Record<…>` makes the compiler insist on a colour (and so a filter option) per value.
const ROLE_COLOURS = {
  student: BLUE,
  staff: CYAN,
  public: GREY,
  merchant: PURPLE,
  rider: ORANGE,
  agent: MAGENTA,
} satisfies Record<UserRole, TagColours>;

const APPROVAL_COLOURS = {
  pending: GOLD,
  approved: GREEN,
  rejected: RED,
} satisfies Record<ApprovalStatus, TagColours>;

const WALLET_COLOURS = {
  active: GREEN,
  frozen: BLUE,
  dormant: GREY,
} satisfies Record<WalletStatus, TagColours>;

const RIDER_COLOURS = {
  pending: GOLD,
  Approved: GREEN,
  Rejected: RED,
} satisfies Record<RiderVerificationStatus, TagColours>;

const keysOf = <K extends string>(record: Record<K, unknown>) => Object.keys(record) as K[];

export const USER_ROLES = keysOf(ROLE_COLOURS);
export const APPROVAL_STATUSES = keysOf(APPROVAL_COLOURS);
export const WALLET_STATUSES = keysOf(WALLET_COLOURS);
export const RIDER_VERIFICATION_STATUSES = keysOf(RIDER_COLOURS);

function ColouredTag({
  colours,
  icon,
  children,
}: {
  colours: TagColours;
  icon?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Tag icon={icon} style={{ ...colours, marginInlineEnd: 0 }}>
      {children}
    </Tag>
  );
}

export function RoleTag({ role }: { role: UserRole }) {
  const { t } = useTranslation("users");
  return <ColouredTag colours={ROLE_COLOURS[role]}>{t(`role.${role}`)}</ColouredTag>;
}

export function ApprovalStatusTag({ status }: { status: ApprovalStatus }) {
  const { t } = useTranslation("users");
  return (
    <ColouredTag colours={APPROVAL_COLOURS[status]}>{t(`approvalStatus.${status}`)}</ColouredTag>
  );
}

export function WalletStatusTag({ status }: { status: WalletStatus }) {
  const { t } = useTranslation("users");
  return <ColouredTag colours={WALLET_COLOURS[status]}>{t(`walletStatus.${status}`)}</ColouredTag>;
}

export function RiderVerificationTag({ status }: { status: RiderVerificationStatus }) {
  const { t } = useTranslation("users");
  return (
    <ColouredTag colours={RIDER_COLOURS[status]}>{t(`riderVerification.${status}`)}</ColouredTag>
  );
}

export function BannedTag() {
  const { t } = useTranslation("users");
  return (
    <ColouredTag colours={RED} icon={<StopOutlined aria-hidden />}>
      {t("flags.banned")}
    </ColouredTag>
  );
}

export function VipTag() {
  const { t } = useTranslation("users");
  return (
    <ColouredTag colours={GOLD} icon={<StarFilled aria-hidden />}>
      {t("flags.vip")}
    </ColouredTag>
  );
}
