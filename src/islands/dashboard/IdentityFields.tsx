// The code field of the forms where the owner confirms it is them (turning two-factor off, new recovery
// codes, deleting the account; server/features/two-factor/confirm-identity.ts): a code from the authenticator
// app or one of the recovery codes. Recovery codes have letters, so no numeric keyboard: whoever lost the
// phone must be able to type one on another phone.
import { Field } from '../ui/Field.tsx';

export function IdentityCodeField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string | undefined }) {
  return (
    <Field
      label="Code from the app"
      name="code"
      value={value}
      onChange={onChange}
      error={error}
      autoComplete="one-time-code"
      hint="Or one of your recovery codes."
    />
  );
}
