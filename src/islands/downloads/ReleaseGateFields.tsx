// The release form's fields of issue 25 (items 1 and 3): the semantic version update feeds need, the
// channel, the release date and the entitlement a downloader's license must include. The entitlement is
// free text with the codes the license types give as suggestions, each named by the types that give it,
// so the admin sees in words who will be able to download.
import { useId } from 'react';
import { Field, SelectField } from '../ui/Field.tsx';
import type { FieldErrors } from '../ui/form-errors.ts';
import { entitlementText } from '../../lib/release-markup.ts';
import type { ReleaseInput } from '../../lib/api/downloads.ts';

/** An entitlement code and the license types that give it. */
export interface KnownEntitlement {
  code: string;
  typeNames: string[];
}

const CHANNEL_OPTIONS = [
  { value: 'stable', label: 'Stable' },
  { value: 'beta', label: 'Beta (licenses with BETA only)' },
] as const;

type GateInput = Pick<ReleaseInput, 'version' | 'channel' | 'released_at' | 'entitlement'>;

interface ReleaseGateFieldsProps {
  input: GateInput;
  onChange: (change: Partial<GateInput>) => void;
  errors: FieldErrors;
  entitlements: readonly KnownEntitlement[];
}

/** Who may download, in words, for the entitlement hint. */
function gateHint(input: GateInput, entitlements: readonly KnownEntitlement[]): string {
  const code = input.entitlement.trim();
  if (!code) return input.channel === 'beta' ? 'Empty: every license with BETA may download this beta.' : 'Empty: every verified user may download it.';
  const known = entitlements.find((entry) => entry.code === code);
  return `${entitlementText(code, known?.typeNames)}, while their maintenance covers the release date.`;
}

export function ReleaseGateFields({ input, onChange, errors, entitlements }: ReleaseGateFieldsProps) {
  const listId = useId();
  return (
    <>
      <Field
        label="Version"
        name="version"
        value={input.version}
        onChange={(version) => onChange({ version })}
        error={errors.version}
        hint="Semantic version such as 3.1.0 or 3.2.0-beta.1; update feeds list only releases with one."
      />
      <SelectField
        label="Channel"
        name="channel"
        value={input.channel}
        onChange={(channel) => onChange({ channel: channel === 'beta' ? 'beta' : 'stable' })}
        options={CHANNEL_OPTIONS}
        error={errors.channel}
      />
      <Field
        label="Release date"
        name="released_at"
        type="date"
        value={input.released_at}
        onChange={(released_at) => onChange({ released_at })}
        error={errors.released_at}
        hint="Maintenance is compared with this date. Empty on a new release: today."
      />
      <Field
        label="Entitlement"
        name="entitlement"
        value={input.entitlement}
        onChange={(entitlement) => onChange({ entitlement })}
        error={errors.entitlement}
        list={listId}
        hint={gateHint(input, entitlements)}
      />
      <datalist id={listId}>
        {entitlements.map((entry) => (
          <option key={entry.code} value={entry.code} label={entry.typeNames.join(', ')} />
        ))}
      </datalist>
    </>
  );
}

/** The codes the license types give, each with the names of its types, sorted by code. */
export function knownEntitlements(types: readonly { name: string; entitlements: readonly string[] }[]): KnownEntitlement[] {
  const byCode = new Map<string, string[]>();
  for (const type of types) for (const code of type.entitlements) byCode.set(code, [...(byCode.get(code) ?? []), type.name]);
  return [...byCode].map(([code, typeNames]) => ({ code, typeNames })).sort((a, b) => a.code.localeCompare(b.code));
}
