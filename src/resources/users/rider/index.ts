export { RiderSection } from "./rider-section";
