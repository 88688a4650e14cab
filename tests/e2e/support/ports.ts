/**
 * Ports of the servers the browser stories start: E2E_PORT_BASE (8181) plus each spec's own
 * offset, so specs never share a port and a run beside another one can move the whole range.
 */
const DEFAULT_BASE = 8181;

export function e2ePort(offset: number): number {
  const base = Number(process.env.E2E_PORT_BASE ?? DEFAULT_BASE);
  return (Number.isInteger(base) && base > 0 ? base : DEFAULT_BASE) + offset;
}
