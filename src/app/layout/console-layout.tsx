import { Layout } from "antd";
import { Suspense, useState } from "react";
import { Outlet, useLocation } from "react-router";
import { PageLoading } from "../components/page-loading";
import { ModuleTexts } from "../module-texts";
import { shellPageFor } from "../shell-pages";
import { Brand } from "./brand";
import { ConsoleHeader } from "./console-header";
import { SideMenu } from "./side-menu";

const MENU_ID = "console-navigation";

/** The signed-in frame: side navigation, header, and the page (or the `?id=` shell page). */
export function ConsoleLayout() {
  const { search } = useLocation();
  // Small screens start with the menu folded so the page keeps its width; the header toggle
  // opens it. `lg` is antd's 992 px breakpoint.
  const [collapsed, setCollapsed] = useState<boolean>(() => window.innerWidth < 992);
  const shellPage = shellPageFor(search);

  return (
    <Layout hasSider style={{ minHeight: "100dvh" }}>
      <Layout.Sider
        id={MENU_ID}
        collapsible
        collapsed={collapsed}
        trigger={null}
        breakpoint="lg"
        collapsedWidth={80}
        onBreakpoint={(broken) => setCollapsed(broken)}
        width={232}
        style={{ position: "sticky", top: 0, height: "100dvh", overflow: "auto" }}
      >
        <div style={{ height: 64, display: "flex", alignItems: "center", paddingInline: 24 }}>
          <Brand collapsed={collapsed} inverse />
        </div>
        <SideMenu collapsed={collapsed} />
      </Layout.Sider>
      <Layout>
        <ConsoleHeader
          collapsed={collapsed}
          menuId={MENU_ID}
          onToggleMenu={() => setCollapsed((value) => !value)}
        />
        <Layout.Content style={{ padding: 24 }}>
          <Suspense fallback={<PageLoading />}>
            {shellPage ? <ModuleTexts>{shellPage}</ModuleTexts> : <Outlet />}
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
