/** The maps key the console was built with (VITE_GOOGLE_MAPS_API_KEY); "" draws no map. */
export const MAPS_API_KEY: string = (
  (import.meta.env.VITE_GOOGLE_MAPS_API_KEY as string | undefined) ?? ""
).trim();
