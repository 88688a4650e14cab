/**
 * The benchmark's yardstick (bench/calculator.ts): the calculator's content as a stock Refine +
 * antd page, written the way the framework's guides write one. Same texts, same fields, same
 * ratios (computed by the same code); the stock way: Refine with its router and notification
 * providers, antd's theme, Form, Card, Tag and Typography, rendered on the client.
 */
import "@ant-design/v5-patch-for-react-19";
import "@refinedev/antd/dist/reset.css";
import { Refine } from "@refinedev/core";
import { RefineThemes, useNotificationProvider } from "@refinedev/antd";
import routerProvider from "@refinedev/react-router";
import {
  App as AntdApp,
  Button,
  Card,
  Col,
  ConfigProvider,
  Form,
  Input,
  Layout,
  Row,
  Space,
  Tag,
  Typography,
} from "antd";
import { useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter, Route, Routes } from "react-router";
import { formatMonths, formatRatioValue, formatRinggit } from "../../src/shared/calculator/format";
import { amountsFromForm } from "../../src/calculator/form-amounts";
import { createTranslator, loadCalculatorTexts, type Translate } from "../../src/calculator/i18n";
import { CALCULATOR_FIELDS, type CalculatorSection } from "../../src/shared/calculator/inputs";
import {
  RATIOS,
  RATIO_GROUPS,
  computeRatios,
  deriveFigures,
} from "../../src/shared/calculator/ratios";
import { EMPTY_FORM, type FormTexts } from "../../src/calculator/storage";

// Set once the texts are loaded, as an i18n provider with a backend would.
let t: Translate = (key) => key;
const BAND_COLOURS = {
  optimum: "green",
  moderate: "gold",
  adverse: "red",
  "not-applicable": "default",
};

function CalculatorPage() {
  const [form, setForm] = useState<FormTexts>(EMPTY_FORM);
  const { amounts } = useMemo(() => amountsFromForm(form), [form]);
  const ratios = useMemo(() => computeRatios(amounts), [amounts]);
  const figures = useMemo(() => deriveFigures(amounts), [amounts]);
  const fields = (section: CalculatorSection) => (
    <Row gutter={16}>
      {CALCULATOR_FIELDS.filter((field) => field.section === section).map((field) => (
        <Col xs={24} sm={12} key={field.key}>
          <Form.Item
            label={t(`fields.${field.key}.label`)}
            extra={field.hasHelp ? t(`fields.${field.key}.help`) : undefined}
          >
            <Input
              prefix={field.kind === "amount" ? "RM" : undefined}
              placeholder={field.kind === "amount" ? "0.00" : undefined}
              value={form[field.key]}
              onChange={(event) => setForm({ ...form, [field.key]: event.target.value })}
            />
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
  return (
    <Layout style={{ minHeight: "100vh" }}>
      <Layout.Header
        style={{ display: "flex", justifyContent: "space-between", alignItems: "center" }}
      >
        <Typography.Title level={3} style={{ color: "#fff", margin: 0 }}>
          {t("page.heading")}
        </Typography.Title>
        <Space>
          <Button ghost>{t("language.en-US")}</Button>
          <Button ghost>{t("language.cn-ZH")}</Button>
        </Space>
      </Layout.Header>
      <Layout.Content style={{ padding: 16, maxWidth: 1232, margin: "0 auto", width: "100%" }}>
        <Typography.Paragraph type="secondary">{t("page.intro")}</Typography.Paragraph>
        <Row gutter={16}>
          <Col xs={24} lg={10}>
            <Card title={t("form.title")}>
              <Typography.Paragraph>{t("form.privacy")}</Typography.Paragraph>
              <Form layout="vertical">
                {fields("top")}
                {(["assets", "liabilities", "cashflow"] as const).map((section) => (
                  <div key={section}>
                    <Typography.Title level={5}>{t(`form.sections.${section}`)}</Typography.Title>
                    {fields(section)}
                  </div>
                ))}
              </Form>
              <Button onClick={() => setForm(EMPTY_FORM)}>{t("form.clear")}</Button>
            </Card>
          </Col>
          <Col xs={24} lg={14}>
            <Card
              title={t("results.title")}
              extra={
                <Space>
                  <Button type="primary">{t("report.open")}</Button>
                  <Button onClick={() => window.print()}>{t("results.print")}</Button>
                </Space>
              }
            >
              <Space wrap>
                <Tag>{`${t("totals.totalAssets")}: ${formatRinggit(figures.totalAssets)}`}</Tag>
                <Tag>{`${t("totals.totalLiabilities")}: ${formatRinggit(figures.totalLiabilities)}`}</Tag>
                <Tag>{`${t("totals.monthlySavings")}: ${formatRinggit(figures.monthlySavings)}`}</Tag>
              </Space>
              {RATIO_GROUPS.map((group) => (
                <div key={group.key}>
                  <Typography.Title level={4}>{t(`results.groups.${group.key}`)}</Typography.Title>
                  <Row gutter={[8, 8]}>
                    {group.ratios.map((key) => {
                      const result = ratios[key];
                      const value =
                        result.value === null
                          ? t("results.noFigure")
                          : RATIOS[key].unit === "months"
                            ? t("units.months", { value: formatMonths(result.value) })
                            : formatRatioValue(RATIOS[key].unit, result.value);
                      return (
                        <Col xs={24} sm={12} key={key}>
                          <Card
                            size="small"
                            title={t(`ratios.${key}.name`)}
                            extra={
                              <Tag color={BAND_COLOURS[result.band]}>
                                {t(`bands.${result.band}`)}
                              </Tag>
                            }
                          >
                            <Typography.Title level={4} style={{ margin: 0 }}>
                              {value}
                            </Typography.Title>
                            <Typography.Text type="secondary">
                              {t("results.optimumLine", { value: t(`ratios.${key}.optimum`) })}
                            </Typography.Text>
                            <Typography.Paragraph>
                              {result.reason
                                ? t(`reasons.${result.reason}`)
                                : t(`ratios.${key}.explanation`)}
                            </Typography.Paragraph>
                          </Card>
                        </Col>
                      );
                    })}
                  </Row>
                </div>
              ))}
            </Card>
          </Col>
        </Row>
      </Layout.Content>
    </Layout>
  );
}

const texts = await loadCalculatorTexts("en-US");
t = createTranslator(texts);
createRoot(document.getElementById("root")!).render(
  <BrowserRouter>
    <ConfigProvider theme={RefineThemes.Blue}>
      <AntdApp>
        <Refine routerProvider={routerProvider} notificationProvider={useNotificationProvider}>
          <Routes>
            <Route path="*" element={<CalculatorPage />} />
          </Routes>
        </Refine>
      </AntdApp>
    </ConfigProvider>
  </BrowserRouter>,
);
