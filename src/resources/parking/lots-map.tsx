import {
  APILoadingStatus,
  APIProvider,
  InfoWindow,
  Map,
  Marker,
  useApiLoadingStatus,
} from "@vis.gl/react-google-maps";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import type { ParkingLotDto } from "../../shared/modules/parking";

/** UCSI's Kuala Lumpur campus, when there is no lot to centre on. */
const CAMPUS = { lat: 3.0797, lng: 101.7336 };

/** Tells the page when the maps script cannot load (offline) or the key is refused. */
function FailureWatch({ onFailure }: { onFailure: () => void }) {
  const status = useApiLoadingStatus();
  useEffect(() => {
    if (status === APILoadingStatus.FAILED || status === APILoadingStatus.AUTH_FAILURE) {
      onFailure();
    }
  }, [status, onFailure]);
  return null;
}

/** The lots as markers, each labelled with how many of its bays are taken. */
export default function LotsMap({
  apiKey,
  lots,
  onFailure,
}: {
  apiKey: string;
  lots: readonly ParkingLotDto[];
  onFailure: () => void;
}) {
  const { t, i18n } = useTranslation("parking");
  const [open, setOpen] = useState<ParkingLotDto>();
  const first = lots[0];
  return (
    <APIProvider
      apiKey={apiKey}
      language={i18n.language === "cn-ZH" ? "zh-CN" : "en"}
      onError={onFailure}
    >
      <FailureWatch onFailure={onFailure} />
      <div style={{ height: 360 }}>
        <Map
          defaultCenter={first ? { lat: first.latitude, lng: first.longitude } : CAMPUS}
          defaultZoom={17}
          gestureHandling="cooperative"
        >
          {lots.map((lot) => (
            <Marker
              key={lot.id}
              position={{ lat: lot.latitude, lng: lot.longitude }}
              title={t("map.marker", {
                name: lot.name,
                occupied: lot.occupied,
                capacity: lot.capacity,
              })}
              label={`${lot.occupied}/${lot.capacity}`}
              onClick={() => setOpen(lot)}
            />
          ))}
          {open && (
            <InfoWindow
              position={{ lat: open.latitude, lng: open.longitude }}
              onCloseClick={() => setOpen(undefined)}
            >
              <strong>{open.name}</strong>
              <div>{t("map.occupancy", { occupied: open.occupied, capacity: open.capacity })}</div>
            </InfoWindow>
          )}
        </Map>
      </div>
    </APIProvider>
  );
}
