import { StarFilled, StopOutlined } from "@ant-design/icons";
import { Tag } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { TAG_COLOURS, type TagColours } from "../../app/kit/tag-colours";
import {
  APPROVAL_STATUSES,
  RIDER_VERIFICATION_STATUSES,
  USER_ROLES,
  WALLET_STATUSES,
  type ApprovalStatus,
  type RiderVerificationStatus,
  type UserRole,
  type WalletStatus,
} from "../../shared/domain";
import type { TagColour } from "../../shared/kit/module";
import { APPROVAL_TAGS, ROLE_TAGS } from "../../shared/modules/users";

const { green: GREEN, grey: GREY, red: RED, gold: GOLD, blue: BLUE } = TAG_COLOURS;

const colours = <K extends string>(tags: Record<K, TagColour>) =>
  Object.fromEntries(
    Object.entries(tags).map(([key, name]) => [key, TAG_COLOURS[name as TagColour]]),
  ) as Record<K, TagColours>;

// The declarations' semantic colours (src/shared/modules/users.ts), as readable tints.
const ROLE_COLOURS = colours(ROLE_TAGS);
const APPROVAL_COLOURS = colours(APPROVAL_TAGS);

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

export { APPROVAL_STATUSES, RIDER_VERIFICATION_STATUSES, USER_ROLES, WALLET_STATUSES };

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
