import { Table } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { ModuleList } from "../../app/kit/module-list";
import { useMayOpen } from "../../app/kit/record-link";
import { dormantAccounts } from "../../shared/modules/dormant";
import { users, type UserDto } from "../../shared/modules/users";
import { userShowPath } from "../users/paths";

/** Whole days since the user was last active (or, never active, since sign-up). */
export function daysInactive(user: Pick<UserDto, "lastActiveAt" | "createdAt">, now = dayjs()) {
  return now.diff(dayjs(user.lastActiveAt ?? user.createdAt), "day");
}

/**
 * The generated list, with how long each account has slept and a way to its wallet (for who may
 * open a user's page).
 */
export default function DormantList() {
  const { t } = useTranslation("dormant");
  const mayOpenWallets = useMayOpen()(users);
  return (
    <ModuleList
      module={dormantAccounts}
      extraColumns={[
        <Table.Column<UserDto>
          key="daysInactive"
          title={t("fields.daysInactive")}
          width={120}
          align="right"
          render={(_, user) => daysInactive(user)}
        />,
        ...(mayOpenWallets
          ? [
              <Table.Column<UserDto>
                key="wallet"
                title={t("fields.wallet")}
                width={130}
                render={(_, user) => (
                  <Link
                    to={userShowPath(user.id)}
                    aria-label={t("openWalletFor", { name: user.name })}
                  >
                    {t("openWallet")}
                  </Link>
                )}
              />,
            ]
          : []),
      ]}
    />
  );
}
