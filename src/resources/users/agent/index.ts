export { AgentSection } from "./agent-section";
