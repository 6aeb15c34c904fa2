// The profile fields both user forms edit: the dashboard's 'Edit your details' and the admin's 'Edit
// User' (which adds the e-mail, the role and the verified flag). One list, one grid, so the two forms
// cannot drift apart.
import { Field } from '../ui/Field.tsx';
import type { FieldErrors } from '../ui/form-errors.ts';

export const PROFILE_FIELDS = [
  { name: 'name', label: 'Name', autoComplete: 'given-name' },
  { name: 'surname', label: 'Surname', autoComplete: 'family-name' },
  { name: 'companyName', label: 'Company Name', autoComplete: 'organization' },
  { name: 'address', label: 'Address', autoComplete: 'street-address', full: true },
  { name: 'postcode', label: 'Post Code', autoComplete: 'postal-code' },
  { name: 'county', label: 'County', autoComplete: 'address-level1' },
  { name: 'country', label: 'Country', autoComplete: 'country-name' },
  { name: 'phone', label: 'Phone', autoComplete: 'tel', type: 'tel' },
  { name: 'vat', label: 'VAT No', autoComplete: 'off' },
] as const;

export const PROFILE_FIELD_NAMES = PROFILE_FIELDS.map((field) => field.name);

export type ProfileField = (typeof PROFILE_FIELDS)[number]['name'];
export type Profile = Record<ProfileField, string>;

/** The profile of a user (missing values as empty fields). */
export function profileOf(user: Partial<Record<ProfileField, string | null>>): Profile {
  const profile = {} as Profile;
  for (const field of PROFILE_FIELDS) profile[field.name] = user[field.name] ?? '';
  return profile;
}

interface ProfileFieldsProps {
  profile: Profile;
  onChange: (name: ProfileField, value: string) => void;
  errors: FieldErrors;
  /** An admin edits someone else's data: the browser must not fill in the admin's own. */
  autoFill: boolean;
}

/** The profile fields as grid cells (the caller supplies the .form-grid around them). */
export function ProfileFields({ profile, onChange, errors, autoFill }: ProfileFieldsProps) {
  return PROFILE_FIELDS.map((field, index) => (
    <div key={field.name} className={'full' in field ? 'field--full' : undefined}>
      <Field
        label={field.label}
        name={field.name}
        type={'type' in field ? field.type : 'text'}
        value={profile[field.name]}
        onChange={(value) => onChange(field.name, value)}
        error={errors[field.name]}
        autoComplete={autoFill ? field.autoComplete : 'off'}
        autoFocusOnOpen={index === 0}
      />
    </div>
  ));
}
