// Integrations (docs/integrations.md): webhooks out to the shop and CRM, API tokens for their calls in.
import type { Confirm } from '../ui/use-confirm.tsx';
import { ApiTokensSection } from './ApiTokensSection.tsx';
import { WebhooksSection } from './WebhooksSection.tsx';

export function IntegrationsPanel({ confirm }: { confirm: Confirm }) {
  return (
    <section className="admin-panel admin-integrations" id="integrations" aria-labelledby="integrations-heading">
      <h2 id="integrations-heading">Integrations</h2>
      <WebhooksSection confirm={confirm} />
      <ApiTokensSection confirm={confirm} />
    </section>
  );
}
