// Webhooks under Integrations (docs/integrations.md#webhooks): add an endpoint (its signing secret shown once),
// send it a test ping, read its deliveries and retry one, turn it off and on, delete it.
import { useRef, useState } from 'react';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { serverMessage } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { useLoaded } from '../ui/use-loaded.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { formatAdminDate } from './dates.ts';
import { ChoiceList } from './ChoiceList.tsx';
import { ShownOnce } from './ShownOnce.tsx';
import { LoadFailed } from '../ui/LoadFailed.tsx';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  retryDelivery,
  updateWebhook,
  WEBHOOK_EVENT_NAMES,
  type Webhook,
  type WebhookDelivery,
} from '../../lib/api/integrations.ts';
import { ActionsHeader, TableScroll } from '../ui/TableScroll.tsx';

function deliveryState(delivery: WebhookDelivery): string {
  if (delivery.delivered_at) return `Delivered (${delivery.last_status ?? ''})`;
  if (delivery.failed_at) return 'Given up';
  if (delivery.attempts === 0) return 'Waiting';
  return `Failing, next try ${formatAdminDate(delivery.next_attempt_at, true) ?? 'soon'}`;
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const load = () => listDeliveries(webhook.id);
  const { value: deliveries, failed, reload } = useLoaded(load, 'the deliveries');
  const [note, setNote] = useState('');
  const retry = async (delivery: WebhookDelivery) => {
    try {
      setNote((await retryDelivery(webhook.id, delivery.id)).message);
      await reload();
    } catch (error) {
      setNote(serverMessage(error));
    }
  };
  if (failed) return <p className="form-message__text form-message__text--error">The deliveries could not be loaded.</p>;
  if (deliveries === null) return <p className="empty-note">Loading the deliveries…</p>;
  if (deliveries.length === 0) return <p className="empty-note">Nothing was sent to this endpoint yet.</p>;
  return (
    <>
      <TableScroll label={`Deliveries to ${webhook.url}`}>
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Created</th>
              <th scope="col">Attempts</th>
              <th scope="col">State</th>
              <th scope="col">Last error</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <th scope="row">
                  <code>{delivery.event}</code>
                </th>
                <td>{formatAdminDate(delivery.created_at, true)}</td>
                <td>{delivery.attempts}</td>
                <td>{deliveryState(delivery)}</td>
                <td>{delivery.last_error ?? ''}</td>
                <td className="admin-table__action">
                  <button type="button" className="button button--secondary button--admin-tiny" onClick={() => void retry(delivery)}>
                    Retry<span className="sr-only"> {delivery.event}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Message message={note ? { text: note, tone: 'info' } : null} />
    </>
  );
}

function WebhookRow({ webhook, onChanged, onRemove }: { webhook: Webhook; onChanged: (next: Webhook) => void; onRemove: () => void }) {
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [note, setNote] = useState('');
  const act = async (work: () => Promise<string>) => {
    try {
      setNote(await work());
    } catch (error) {
      setNote(serverMessage(error));
    }
  };
  const ping = () =>
    act(async () => {
      const answer = await pingWebhook(webhook.id);
      return answer.ok
        ? `Test ping delivered (HTTP ${answer.delivery?.last_status ?? ''}).`
        : `Test ping failed: ${answer.delivery?.last_error ?? 'no answer'}`;
    });
  const toggle = () =>
    act(async () => {
      const answer = await updateWebhook(webhook.id, { enabled: webhook.enabled ? 0 : 1 });
      onChanged(answer.webhook);
      return answer.webhook.enabled ? 'Endpoint on: waiting deliveries are sent.' : 'Endpoint off: events wait until it is on again.';
    });
  return (
    <li className="admin-integration">
      <div className="admin-integration__head">
        <p className="admin-integration__title">
          <code>{webhook.url}</code> {webhook.enabled ? <span className="badge">On</span> : <span className="badge badge--muted">Off</span>}
        </p>
        {webhook.description && <p>{webhook.description}</p>}
        <p className="admin-integration__events">Events: {webhook.events.join(', ')}</p>
        {webhook.disabled_reason && <p className="form-message__text form-message__text--error">{webhook.disabled_reason}</p>}
      </div>
      <div className="admin-integration__actions">
        <button type="button" className="button button--secondary" onClick={() => void ping()}>
          Send test<span className="sr-only"> to {webhook.url}</span>
        </button>
        <button type="button" className="button button--secondary" aria-expanded={showDeliveries} onClick={() => setShowDeliveries((shown) => !shown)}>
          Deliveries<span className="sr-only"> to {webhook.url}</span>
        </button>
        <button type="button" className="button button--secondary" onClick={() => void toggle()}>
          {webhook.enabled ? 'Turn off' : 'Turn on'}
          <span className="sr-only"> {webhook.url}</span>
        </button>
        <button type="button" className="button button--secondary button--admin-danger-outline" aria-haspopup="dialog" onClick={onRemove}>
          Delete<span className="sr-only"> {webhook.url}</span>
        </button>
      </div>
      <Message message={note ? { text: note, tone: 'info' } : null} />
      {showDeliveries && <Deliveries webhook={webhook} />}
    </li>
  );
}

export function WebhooksSection({ confirm }: { confirm: Confirm }) {
  const { value: webhooks, setValue: setWebhooks, failed, reload } = useLoaded(listWebhooks, 'the webhooks');
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [secret, setSecret] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['url', 'events', 'description'], busyLabel: 'Adding…' });

  const add = form.onSubmit(async () => {
    const answer = await createWebhook({ url, description, events: WEBHOOK_EVENT_NAMES.filter((event) => events.has(event)) });
    const { secret: shown, ...webhook } = answer.webhook;
    setWebhooks((list) => [...(list ?? []), webhook]);
    setSecret(shown);
    setUrl('');
    setDescription('');
    setEvents(new Set());
    return { text: 'Webhook endpoint added.', tone: 'success' };
  });

  const remove = async (webhook: Webhook) => {
    const ok = await confirm({
      title: 'Delete webhook endpoint',
      message: `Delete ${webhook.url}? Its waiting deliveries are dropped.`,
      confirmLabel: 'Delete',
    });
    if (!ok) return;
    try {
      await deleteWebhook(webhook.id);
      setWebhooks((list) => (list ?? []).filter((item) => item.id !== webhook.id));
      form.setMessage({ text: `Deleted ${webhook.url}.`, tone: 'success' });
    } catch (error) {
      form.setMessage({ text: serverMessage(error), tone: 'error' });
    }
  };

  return (
    <section className="admin-integrations__part" aria-labelledby="webhooks-heading">
      <h3 id="webhooks-heading">Webhooks</h3>
      <p className="field__hint">
        Signed by the Standard Webhooks specification; receivers verify them with its libraries. Each event&apos;s body and headers:{' '}
        <a href="/api/reference#webhooks">API reference, Webhooks</a>.
      </p>
      {secret && <ShownOnce label="Signing secret" value={secret} onDone={() => setSecret(null)} />}
      <form ref={formRef} className="admin-integrations__form" noValidate onSubmit={add} aria-busy={form.busy}>
        <Field
          label="URL"
          name="url"
          value={url}
          onChange={setUrl}
          error={form.errors.url}
          autoComplete="off"
          hint="Where events are POSTed, such as https://crm.example.com/hooks/site."
        />
        <Field label="Description" name="description" value={description} onChange={setDescription} error={form.errors.description} autoComplete="off" />
        <ChoiceList legend="Events" name="events" options={WEBHOOK_EVENT_NAMES} chosen={events} onChange={setEvents} error={form.errors.events} />
        <SubmitButton label="Add Webhook" busyLabel={form.busyLabel} />
      </form>
      <Message message={form.message} />
      {failed && <LoadFailed what="the webhooks" onRetry={() => void reload()} />}
      {webhooks?.length === 0 && <p className="empty-note">No webhook endpoint yet.</p>}
      {webhooks && webhooks.length > 0 && (
        <ul className="admin-integrations__list">
          {webhooks.map((webhook) => (
            <WebhookRow
              key={webhook.id}
              webhook={webhook}
              onChanged={(next) => setWebhooks((list) => (list ?? []).map((item) => (item.id === next.id ? next : item)))}
              onRemove={() => void remove(webhook)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
