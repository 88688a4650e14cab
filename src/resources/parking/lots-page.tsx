import { useList } from "@refinedev/core";
import { Alert } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";

import { Panel } from "../../app/components/panel";
import { ModuleList } from "../../app/kit/module-list";
import { parkingLots, type ParkingLotDto } from "../../shared/modules/parking";
import { MAPS_API_KEY } from "./maps-key";

// The maps binding and Google's script load only when a key is configured and the page opens.
const LotsMap = lazy(() => import("./lots-map"));

/** The most lots the map draws (a campus has a handful). */
const MAP_LOTS = 100;

/**
 * The lots on a map with how full each is (active sessions / bays), above their list. Without a
 * maps key, or when the maps service cannot be reached, the page says so and the list below
 * (name, bays, cars in, rates, status) stands in for the map.
 */
function MapPanel() {
  const { t } = useTranslation("parking");
  const [failed, setFailed] = useState(false);
  const { result } = useList<ParkingLotDto>({
    resource: parkingLots.name,
    pagination: { currentPage: 1, pageSize: MAP_LOTS },
    queryOptions: { enabled: MAPS_API_KEY !== "" },
    errorNotification: false,
  });
  if (!MAPS_API_KEY || failed) {
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={t(failed ? "map.failed" : "map.notConfigured")}
        description={failed ? undefined : t("map.notConfiguredHint")}
      />
    );
  }
  return (
    <Panel title={t("map.title")}>
      <Suspense fallback={<div style={{ height: 360 }} />}>
        <LotsMap apiKey={MAPS_API_KEY} lots={result.data} onFailure={() => setFailed(true)} />
      </Suspense>
    </Panel>
  );
}

export default function ParkingLotsPage() {
  return <ModuleList module={parkingLots} before={<MapPanel />} />;
}
