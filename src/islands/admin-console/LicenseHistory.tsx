// A license's History on the admin screen (issue 12, items 5 and 7): GET /api/license/{id}/events each time it
// opens, in the same words and dates as the owner's card (issue 24, item 5: src/islands/ui/LicenseHistory.tsx
// over common/license-history.ts), with who acted.
import { listLicenseEvents } from '../../lib/api/admin.ts';
import { LicenseHistory as History } from '../ui/LicenseHistory.tsx';

export function LicenseHistory({ licenseId }: { licenseId: number }) {
  return <History load={() => listLicenseEvents(licenseId)} />;
}
