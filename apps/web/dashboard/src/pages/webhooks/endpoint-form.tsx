import { CreateWebhookEndpointInput } from '@esign/core/schemas/webhook-endpoints';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { msg, t } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Button, ErrorNote, SubmitRow, TextField } from '../../ui.tsx';

interface Values {
  url: string;
  events: string[];
  headers: Record<string, string>;
}

type HeaderRow = { name: string; value: string };

/** Examples in the empty fields: data, the same in every language. */
const EXAMPLE_HEADER_NAME = 'X-Api-Token';
const EXAMPLE_URL = 'https://example.com/webhooks/esign';

/** A checkbox per event type; `error` is the events' validation message. */
function EventChoices({
  types,
  events,
  setEvents,
  error,
}: {
  types: string[];
  events: string[];
  setEvents: (change: (list: string[]) => string[]) => void;
  error: string | undefined;
}) {
  const legend = useId();
  return (
    <fieldset className="fieldset" aria-describedby={error ? `${legend}-err` : undefined}>
      <legend id={legend}>{msg('webhooks.form.events')}</legend>
      {error ? (
        <p id={`${legend}-err`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="event-grid">
        {types.map((t) => (
          <label key={t} className="check">
            <input
              type="checkbox"
              checked={events.includes(t)}
              onChange={(e) =>
                setEvents((list) => (e.target.checked ? [...list, t] : list.filter((x) => x !== t)))
              }
            />
            <code>{t}</code>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Name and value rows of the custom headers, with Add and Remove. */
function HeaderRows({
  headers,
  setHeaders,
}: {
  headers: HeaderRow[];
  setHeaders: (change: (list: HeaderRow[]) => HeaderRow[]) => void;
}) {
  const edit = (i: number, part: Partial<HeaderRow>) =>
    setHeaders((l) => l.map((x, j) => (j === i ? { ...x, ...part } : x)));
  return (
    <fieldset className="fieldset">
      <legend>{msg('webhooks.form.headers')}</legend>
      {headers.map((h, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
        <div key={i} className="header-row">
          <input
            aria-label={t('webhooks.form.header_name', { number: i + 1 })}
            placeholder={EXAMPLE_HEADER_NAME}
            value={h.name}
            onChange={(e) => edit(i, { name: e.target.value })}
          />
          <input
            aria-label={t('webhooks.form.header_value', { number: i + 1 })}
            placeholder={msg('webhooks.form.header_value_placeholder')}
            value={h.value}
            onChange={(e) => edit(i, { value: e.target.value })}
          />
          <Button
            small
            variant="ghost"
            aria-label={t('webhooks.form.remove_header', { number: i + 1 })}
            onClick={() => setHeaders((l) => l.filter((_, j) => j !== i))}
          >
            {msg('webhooks.form.remove')}
          </Button>
        </div>
      ))}
      <Button small onClick={() => setHeaders((l) => [...l, { name: '', value: '' }])}>
        {msg('webhooks.form.add_header')}
      </Button>
    </fieldset>
  );
}

/** URL, events and custom headers of an endpoint (create and edit). */
export function EndpointForm({
  initial,
  eventTypes,
  busy,
  error,
  submitLabel,
  onSubmit,
}: {
  initial: Values;
  eventTypes?: string[];
  busy: boolean;
  error: unknown;
  submitLabel: string;
  onSubmit: (v: Values) => void;
}) {
  const types = useQuery({ ...trpc.webhookEndpoints.list.queryOptions(), enabled: !eventTypes });
  const allTypes = eventTypes ?? types.data?.event_types ?? initial.events;
  const [url, setUrl] = useState(initial.url);
  const [events, setEvents] = useState<string[]>(initial.events);
  const [headers, setHeaders] = useState<HeaderRow[]>(
    Object.entries(initial.headers).map(([name, value]) => ({ name, value })),
  );
  const [issues, setIssues] = useState<Record<string, string>>({});
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const values = {
      url,
      events,
      headers: Object.fromEntries(headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value])),
    };
    const parsed = CreateWebhookEndpointInput.safeParse(values);
    if (!parsed.success) {
      setIssues(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setIssues({});
    onSubmit(values);
  };
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={error} />
      <TextField
        label={msg('webhooks.form.url')}
        type="url"
        placeholder={EXAMPLE_URL}
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={issues.url}
      />
      <EventChoices types={allTypes} events={events} setEvents={setEvents} error={issues.events} />
      <HeaderRows headers={headers} setHeaders={setHeaders} />
      <SubmitRow busy={busy}>{submitLabel}</SubmitRow>
    </form>
  );
}
