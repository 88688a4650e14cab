import { Space } from "antd";
import { useTranslation } from "react-i18next";

import { renderCell } from "../../app/kit/cells";
import { ModuleList } from "../../app/kit/module-list";
import { users, type UserDto } from "../../shared/modules/users";
import { userCsvColumns } from "./export/csv";
import { BannedTag, VipTag } from "./tags";

/** User > User: the generated list; a name carries its ban and VIP flags. */
export default function UserList() {
  const { t } = useTranslation(["users", "kit"]);
  return (
    <ModuleList
      module={users}
      render={{
        name: (name, row) => {
          const user = row as unknown as UserDto;
          return (
            <Space size={6} wrap>
              {renderCell(t, users, "name", name, row)}
              {user.isBanned && <BannedTag />}
              {user.isVip && <VipTag />}
            </Space>
          );
        },
      }}
      // The export's own columns (flags as yes / no, times with the hour): the users namespace words them.
      csvColumns={userCsvColumns as never}
    />
  );
}
