// Who holds a license's seats (docs/licensing.md): rules on rows already read, shared by the activations and
// heartbeats (activation.ts), the software's validate (api-routes.ts) and what the owner and admins see
// (present.ts), so the three cannot count seats differently.
import type { LicenseMachine } from './queries.ts';

/** The machines that hold or wait for a seat: for a floating license only the leases that have not lapsed. */
export function liveMachines<Machine extends Pick<LicenseMachine, 'lease_expires_at'>>(
  license: { floating: number },
  machines: readonly Machine[],
  now: number,
): Machine[] {
  if (license.floating !== 1) return [...machines];
  return machines.filter((machine) => Date.parse(machine.lease_expires_at) > now);
}

/**
 * Whether a machine holds one of the license's seats. Normally every activated machine does; when an
 * admin lowers the limit below the machines already activated, the ones activated first keep theirs and
 * the rest are told TOO_MANY_MACHINES until one is deactivated.
 */
export function holdsSeat(machines: readonly LicenseMachine[], machineId: number, maxMachines: number): boolean {
  const rank = machines.findIndex((machine) => machine.id === machineId);
  return rank >= 0 && rank < maxMachines;
}
