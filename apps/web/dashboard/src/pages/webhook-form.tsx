import { CreateWebhookEndpointInput } from '@esign/core/schemas/webhook-endpoints';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { trpc } from '../trpc.ts';
import { Button, ErrorNote, SubmitRow, TextField } from '../ui.tsx';

interface Values {
  url: string;
  events: string[];
  headers: Record<string, string>;
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
  const [headers, setHeaders] = useState<{ name: string; value: string }[]>(
    Object.entries(initial.headers).map(([name, value]) => ({ name, value })),
  );
  const [issues, setIssues] = useState<Record<string, string>>({});
  const legend = useId();
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
        label="URL"
        type="url"
        placeholder="https://example.com/webhooks/esign"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={issues.url}
      />
      <fieldset className="fieldset" aria-describedby={issues.events ? `${legend}-err` : undefined}>
        <legend id={legend}>Events</legend>
        {issues.events ? (
          <p id={`${legend}-err`} className="field-error" role="alert">
            {issues.events}
          </p>
        ) : null}
        <div className="event-grid">
          {allTypes.map((t) => (
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
      <fieldset className="fieldset">
        <legend>Custom headers (optional)</legend>
        {headers.map((h, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
          <div key={i} className="header-row">
            <input
              aria-label={`Header ${i + 1} name`}
              placeholder="X-Api-Token"
              value={h.name}
              onChange={(e) =>
                setHeaders((l) => l.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
              }
            />
            <input
              aria-label={`Header ${i + 1} value`}
              placeholder="value"
              value={h.value}
              onChange={(e) =>
                setHeaders((l) => l.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))
              }
            />
            <Button
              small
              variant="ghost"
              aria-label={`Remove header ${i + 1}`}
              onClick={() => setHeaders((l) => l.filter((_, j) => j !== i))}
            >
              Remove
            </Button>
          </div>
        ))}
        <Button small onClick={() => setHeaders((l) => [...l, { name: '', value: '' }])}>
          Add a header
        </Button>
      </fieldset>
      <SubmitRow busy={busy}>{submitLabel}</SubmitRow>
    </form>
  );
}
