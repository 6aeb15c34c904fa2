// The snapshot's constants that browser code needs (reading routes, download buttons, the admin
// overlay). Kept apart from snapshot-schema.ts, which describes the snapshot and its types, so that
// importing them does not put zod into a browser bundle.

export const NAMESPACE_LIST = ['news', 'documentation', 'tutorials'] as const;
export type Namespace = (typeof NAMESPACE_LIST)[number];

/** File name of the snapshot inside the content directory. */
export const SNAPSHOT_FILE = 'site.json';
