// How a license type's name is shown to people: capitalised, as the status that names it ("Trial – expires
// in 30 days"). The stored names are lower case ('trial', 'perpetual': docs/product/data-model.md); the
// server's status text and the dashboard's license card both show them through here, so they agree
// (issue 28, 2.20).
export function licenseTypeLabel(name: string): string {
  const trimmed = name.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}
