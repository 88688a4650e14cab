import { NoWrap } from "../../../app/kit/cells";
import { useCustom } from "@refinedev/core";
import { Button, DatePicker, Empty, Flex, Form, Table, Typography } from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "../../../app/components/panel";
import { QueryError } from "../../../app/components/query-error";
import { DAY_FORMAT, formatDate, formatDateTime } from "../../../app/format";
import type { RiderAttendance, UserDetail } from "../../../providers/api-types";
import { ATTENDANCE_MAX_RANGE_DAYS } from "../../../shared/riders";
import {
  attendanceRangeProblem,
  defaultAttendanceRange,
  RIDER_ATTENDANCE_URL,
  riderAttendanceQuery,
} from "./requests";

type Range = [Dayjs | null, Dayjs | null] | null;
type Day = RiderAttendance["days"][number];

/** Minutes as `7 h 05 min`. */
export function formatWorked(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  return `${Math.floor(whole / 60)} h ${String(whole % 60).padStart(2, "0")} min`;
}

/** A rider's clock-ins and clock-outs between two dates (the last 30 days at first). */
export function AttendancePanel({ user }: { user: UserDetail }) {
  const { t } = useTranslation("riders");
  const [form] = Form.useForm<{ range: Range }>();
  const [asked, setAsked] = useState<[Dayjs, Dayjs]>(() => defaultAttendanceRange());
  const query = riderAttendanceQuery(user.accountNumber, asked[0], asked[1]);
  const { query: attendance, result } = useCustom<RiderAttendance>({
    url: RIDER_ATTENDANCE_URL,
    method: "get",
    config: { query },
    queryOptions: {
      queryKey: ["rider-attendance", query.account_number, query.start_date, query.end_date],
    },
    errorNotification: false,
  });
  const data = attendance.data ? result.data : undefined;

  const show = ({ range }: { range: Range }) => {
    const [start, end] = range ?? [];
    if (start && end) setAsked([start, end]);
  };

  let body;
  if (attendance.isLoading) {
    body = <Table<Day> loading dataSource={[]} columns={[]} pagination={false} />;
  } else if (attendance.isError || !data) {
    body = (
      <QueryError
        error={attendance.error}
        onRetry={() => void attendance.refetch()}
        title={t("attendance.loadFailed")}
      />
    );
  } else if (data.days.length === 0) {
    body = <Empty description={t("attendance.empty")} />;
  } else {
    body = (
      <>
        <Table<Day>
          size="small"
          rowKey={(day) => `${day.date}-${day.clockIn}`}
          dataSource={data.days}
          pagination={data.days.length > 31 ? { pageSize: 31, showSizeChanger: false } : false}
          columns={[
            {
              key: "date",
              title: t("attendance.date"),
              render: (_, day) => <NoWrap>{formatDate(`${day.date}T00:00:00`)}</NoWrap>,
            },
            {
              key: "clockIn",
              title: t("attendance.clockIn"),
              render: (_, day) => <NoWrap>{formatDateTime(day.clockIn)}</NoWrap>,
            },
            {
              key: "clockOut",
              title: t("attendance.clockOut"),
              render: (_, day) => (
                <NoWrap>{formatDateTime(day.clockOut, t("attendance.stillIn"))}</NoWrap>
              ),
            },
            {
              key: "worked",
              title: t("attendance.worked"),
              align: "right",
              render: (_, day) =>
                day.workedMinutes === null ? "—" : formatWorked(day.workedMinutes),
            },
          ]}
        />
        <Typography.Paragraph strong style={{ textAlign: "right", margin: "8px 0 0" }}>
          {t("attendance.total", { worked: formatWorked(data.totalWorkedMinutes) })}
        </Typography.Paragraph>
      </>
    );
  }

  return (
    <Panel title={t("attendance.title")}>
      <Form
        form={form}
        layout="inline"
        onFinish={show}
        initialValues={{ range: asked }}
        style={{ marginBottom: 12, rowGap: 8 }}
      >
        <Form.Item
          name="range"
          label={t("attendance.range")}
          rules={[
            {
              validator: (_, range: Range) => {
                const problem = attendanceRangeProblem(range);
                return problem
                  ? Promise.reject(
                      new Error(t(`attendance.${problem}`, { max: ATTENDANCE_MAX_RANGE_DAYS })),
                    )
                  : Promise.resolve();
              },
            },
          ]}
        >
          <DatePicker.RangePicker
            format={DAY_FORMAT}
            order={false}
            allowEmpty={[false, false]}
            aria-label={t("attendance.range")}
          />
        </Form.Item>
        <Form.Item>
          <Flex gap={8}>
            <Button type="primary" htmlType="submit">
              {t("attendance.show")}
            </Button>
          </Flex>
        </Form.Item>
      </Form>
      {body}
    </Panel>
  );
}
