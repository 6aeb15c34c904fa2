// The machines activated on a license (issue 12, items 6 and 7; docs/licensing.md): name, platform, when
// it last checked in (relative, the exact time in its title) and a Deactivate button. Shared by the
// dashboard's license card (the owner) and the admin's license panel (any machine); the caller asks for
// confirmation and makes the call.
import type { MachineView } from '../../../server/features/licensing/machine-list.ts';
import { When } from '../ui/When.tsx';
import { historyTime } from '../../../common/license-history.ts';

/** A machine as license objects carry it: the server's own type (docs/decisions/0021-typed-api-client.md). */
export type MachineItem = MachineView;

/** What a machine is called on buttons and in confirmations: its name, else its fingerprint's start. */
export function machineLabel(machine: Pick<MachineItem, 'name' | 'fingerprint'>): string {
  if (machine.name) return machine.name;
  const fingerprint = machine.fingerprint.length > 16 ? `${machine.fingerprint.slice(0, 16)}…` : machine.fingerprint;
  return `Machine ${fingerprint}`;
}

interface MachineListProps {
  machines: readonly MachineItem[];
  maxMachines: number;
  /** A floating license (issue 24): its machines are leases on seats, each with its end time. */
  floating?: boolean;
  onDeactivate: (machine: MachineItem) => void;
  /** The admin sees the whole fingerprint; the owner a short one. */
  showFingerprint?: boolean;
}

/** "2 of 3 seats in use" for a floating license, "1 of 3 machines activated" for a node-locked one. */
export function seatsText(inUse: number, max: number, floating: boolean): string {
  if (floating) return `${inUse} of ${max} ${max === 1 ? 'seat' : 'seats'} in use`;
  return `${inUse} of ${max} ${max === 1 ? 'machine' : 'machines'} activated`;
}

export function MachineList({ machines, maxMachines, floating = false, onDeactivate, showFingerprint = false }: MachineListProps) {
  return (
    <div className="machines">
      <p className="machines__seats">{seatsText(machines.length, maxMachines, floating)}</p>
      {machines.length > 0 && (
        <ul className="machines__list">
          {machines.map((machine) => (
            <li key={machine.id} className="machines__item">
              <div className="machines__text">
                <span className="machines__name">{machineLabel(machine)}</span>
                <span className="machines__meta">
                  {machine.platform ?? 'Unknown platform'} · last check-in <When value={machine.last_check_in_at} />
                  {floating && (
                    <>
                      {' '}
                      · lease ends <time dateTime={machine.lease_expires_at}>{historyTime(machine.lease_expires_at)}</time>
                    </>
                  )}
                </span>
                {showFingerprint && <code className="machines__fingerprint">{machine.fingerprint}</code>}
              </div>
              <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => onDeactivate(machine)}>
                Deactivate<span className="sr-only"> {machineLabel(machine)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
