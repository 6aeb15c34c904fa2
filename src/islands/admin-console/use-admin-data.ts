// The admin screen's users, their licenses and the license types, loaded once with GET
// /api/license/getAll (docs/product/api.md) and then kept in step with every write's answer: the server answers each
// edit, ban, grant or delete with the changed user (and license), so the 10,000-row list is never loaded
// again just to show one change. 'Reload' is there for changes made elsewhere (another admin, a user).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../lib/api/request.ts';
import { loadAdminData, type AdminUser, type License, type LicenseType } from '../../lib/api/admin.ts';

export type LoadState = 'loading' | 'ready' | 'failed';

export interface AdminDataApi {
  state: LoadState;
  /** Why the last load failed, for the admin. */
  loadError: string | null;
  users: AdminUser[];
  licensesByUser: ReadonlyMap<number, License[]>;
  licenseTypes: LicenseType[];
  reload: () => Promise<void>;
  putUser: (user: AdminUser) => void;
  removeUser: (id: number) => void;
  putLicense: (license: License) => void;
  removeLicense: (id: number) => void;
}

function groupByUser(licenses: readonly License[]): Map<number, License[]> {
  const map = new Map<number, License[]>();
  for (const license of licenses) {
    const list = map.get(license.user_id);
    if (list) list.push(license);
    else map.set(license.user_id, [license]);
  }
  return map;
}

export function useAdminData(): AdminDataApi {
  const [state, setState] = useState<LoadState>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [users, setUsers] = useState<AdminUser[]>([]);
  const [licenses, setLicenses] = useState<License[]>([]);
  const [licenseTypes, setLicenseTypes] = useState<LicenseType[]>([]);

  const reload = useCallback(async () => {
    setState('loading');
    try {
      const data = await loadAdminData();
      setUsers(data.users);
      setLicenses(data.licenses);
      setLicenseTypes(data.license_types);
      setLoadError(null);
      setState('ready');
    } catch (error) {
      console.error('Could not load the users', error);
      setLoadError(error instanceof ApiError ? error.message : 'The server could not be reached.');
      setState('failed');
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const putUser = useCallback((user: AdminUser) => setUsers((list) => list.map((item) => (item.id === user.id ? user : item))), []);
  const removeUser = useCallback((id: number) => {
    setUsers((list) => list.filter((item) => item.id !== id));
    // The server deletes their licenses with them.
    setLicenses((list) => list.filter((item) => item.user_id !== id));
  }, []);
  const putLicense = useCallback(
    (license: License) =>
      setLicenses((list) => (list.some((item) => item.id === license.id) ? list.map((item) => (item.id === license.id ? license : item)) : [...list, license])),
    [],
  );
  const removeLicense = useCallback((id: number) => setLicenses((list) => list.filter((item) => item.id !== id)), []);
  const licensesByUser = useMemo(() => groupByUser(licenses), [licenses]);

  return { state, loadError, users, licensesByUser, licenseTypes, reload, putUser, removeUser, putLicense, removeLicense };
}
