import { Drawer, Grid, Layout } from "antd";
import { Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { CommandPalette } from "../command-palette";
import { PageLoading } from "../components/page-loading";
import { ModuleTexts } from "../module-texts";
import { shellPageFor } from "../shell-pages";
import { Brand } from "./brand";
import { ConsoleHeader } from "./console-header";
import { SideMenu } from "./side-menu";

const MENU_ID = "console-navigation";

/** The side navigation's own content: the brand over the menu. */
function Navigation({ collapsed }: { collapsed: boolean }) {
  return (
    <>
      <div style={{ height: 64, display: "flex", alignItems: "center", paddingInline: 24 }}>
        <Brand collapsed={collapsed} inverse />
      </div>
      <SideMenu collapsed={collapsed} />
    </>
  );
}

/**
 * The signed-in frame: side navigation, header, and the page (or the `?id=` shell page). Below
 * antd's `md` breakpoint (768 px, a phone) the navigation is a drawer over the page, closed
 * whenever the page changes; above it a side bar that folds to icons below `lg` (992 px).
 */
export function ConsoleLayout() {
  const { t } = useTranslation("common");
  const { pathname, search } = useLocation();
  const screens = Grid.useBreakpoint();
  // Before the first measurement `md` is undefined: the width decides, as the media query will.
  const phone = screens.md === undefined ? window.innerWidth < 768 : !screens.md;
  const [collapsed, setCollapsed] = useState<boolean>(() => window.innerWidth < 992);
  // The drawer is open on the page where it was opened: choosing another page closes it.
  const here = pathname + search;
  const [drawerOpenOn, setDrawerOpenOn] = useState<string | null>(null);
  const drawerOpen = phone && drawerOpenOn === here;
  const shellPage = shellPageFor(search);

  return (
    <Layout hasSider={!phone} style={{ minHeight: "100dvh" }}>
      {phone ? (
        <Drawer
          id={MENU_ID}
          // A dialog is named (axe: aria-dialog-name): as the menu inside it, "Navigation".
          aria-label={t("navigation")}
          placement="left"
          width={256}
          open={drawerOpen}
          onClose={() => setDrawerOpenOn(null)}
          closable={false}
          styles={{ body: { padding: 0 } }}
        >
          {/* A side bar inside the drawer: the same colours as on a wide screen. */}
          <Layout.Sider width="100%" style={{ minHeight: "100%" }}>
            <Navigation collapsed={false} />
          </Layout.Sider>
        </Drawer>
      ) : (
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
          <Navigation collapsed={collapsed} />
        </Layout.Sider>
      )}
      <Layout style={{ minWidth: 0 }}>
        <ConsoleHeader
          compact={phone}
          collapsed={phone ? !drawerOpen : collapsed}
          menuId={MENU_ID}
          onToggleMenu={() =>
            phone ? setDrawerOpenOn(drawerOpen ? null : here) : setCollapsed((value) => !value)
          }
        />
        <Layout.Content style={{ padding: phone ? 12 : 24, minWidth: 0 }}>
          <Suspense fallback={<PageLoading />}>
            {shellPage ? <ModuleTexts>{shellPage}</ModuleTexts> : <Outlet />}
          </Suspense>
        </Layout.Content>
      </Layout>
      <CommandPalette />
    </Layout>
  );
}
