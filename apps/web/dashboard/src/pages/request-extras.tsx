import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { msg, t } from '../messages/index.ts';
import { trpc } from '../trpc.ts';
import { CardForm, CheckboxField, Loading, SelectField, useToast } from '../ui.tsx';

// Issue 34.2 and 34.3 in the dashboard: automatic reminders and handing a turn on, as options of
// the Send and Bulk send pages (from the account's default schedule), and that default on the
// Account page (admins).

export interface Schedule {
  every_hours: number;
  max: number;
}

/** What the Send and Bulk send pages add to the request. */
export interface RequestExtras {
  reminders: Schedule | null;
  allow_delegation: boolean;
}

const EVERY = [24, 48, 72, 120, 168, 336];
const SUGGESTED: Schedule = { every_hours: 72, max: 3 };
const days = (h: number) =>
  h % 24 === 0
    ? t('requests.extras.every_days', { days: h / 24 })
    : t('requests.extras.every_hours', { hours: h });

/** The extras state of a send form, starting from the account's default schedule once it is read. */
export function useRequestExtras(): [RequestExtras, (v: RequestExtras) => void] {
  const defaults = useQuery(trpc.reminders.defaults.queryOptions());
  const [extras, setExtras] = useState<RequestExtras>({ reminders: null, allow_delegation: false });
  const initial = defaults.data?.reminders;
  useEffect(() => {
    if (initial) setExtras((e) => ({ ...e, reminders: initial }));
  }, [initial]);
  return [extras, setExtras];
}

/** The schedule: off, or every N days at most M times per signer. */
function ScheduleFields({
  value,
  onChange,
  maxReminders = 10,
}: {
  value: Schedule | null;
  onChange: (v: Schedule | null) => void;
  maxReminders?: number;
}) {
  const every = !value || EVERY.includes(value.every_hours) ? EVERY : [...EVERY, value.every_hours];
  return (
    <>
      <CheckboxField
        label={msg('requests.extras.remind')}
        hint={msg('requests.extras.remind_hint')}
        checked={value !== null}
        onChange={(e) => onChange(e.target.checked ? (value ?? SUGGESTED) : null)}
      />
      {value ? (
        <div className="grid-2">
          <SelectField
            label={msg('requests.extras.every')}
            value={String(value.every_hours)}
            onChange={(e) => onChange({ ...value, every_hours: Number(e.target.value) })}
            options={every.map((h) => ({ value: String(h), label: days(h) }))}
          />
          <SelectField
            label={msg('requests.extras.at_most')}
            value={String(value.max)}
            onChange={(e) => onChange({ ...value, max: Number(e.target.value) })}
            options={Array.from({ length: maxReminders }, (_, i) => ({
              value: String(i + 1),
              label: t('requests.extras.per_signer', { count: i + 1 }),
            }))}
          />
        </div>
      ) : null}
    </>
  );
}

/** The Send and Bulk send pages' fieldset. */
export function RequestExtrasFieldset({
  value,
  onChange,
}: {
  value: RequestExtras;
  onChange: (v: RequestExtras) => void;
}) {
  return (
    <fieldset className="fieldset">
      <legend>{msg('requests.extras.legend')}</legend>
      <ScheduleFields value={value.reminders} onChange={(reminders) => onChange({ ...value, reminders })} />
      <CheckboxField
        label={msg('requests.extras.delegation')}
        hint={msg('requests.extras.delegation_hint')}
        checked={value.allow_delegation}
        onChange={(e) => onChange({ ...value, allow_delegation: e.target.checked })}
      />
    </fieldset>
  );
}

/** Account page (admins): the schedule every request gets when its sender names none. */
export function ReminderDefaultsForm() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const defaults = useQuery(trpc.reminders.defaults.queryOptions());
  const [value, setValue] = useState<Schedule | null>(null);
  const loaded = defaults.data?.reminders;
  useEffect(() => setValue(loaded ?? null), [loaded]);
  const save = useMutation(
    trpc.reminders.setDefaults.mutationOptions({
      onSuccess: async () => {
        toast(msg('requests.extras.default_saved'));
        await queryClient.invalidateQueries({ queryKey: trpc.reminders.pathKey() });
      },
    }),
  );
  if (defaults.isPending) return <Loading />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ reminders: value });
  };
  return (
    <CardForm
      id="reminder-defaults"
      title={msg('requests.extras.default_title')}
      intro={<p className="hint">{msg('requests.extras.default_intro')}</p>}
      onSubmit={submit}
      error={save.error ?? defaults.error}
      busy={save.isPending}
      submitLabel={msg('requests.extras.default_save')}
    >
      <ScheduleFields value={value} onChange={setValue} maxReminders={defaults.data?.bounds.max_reminders} />
    </CardForm>
  );
}
