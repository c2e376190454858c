import { CodeInput } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { msg, t } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Button, CopyButton, ErrorNote, Loading, TextField, useToast } from '../../ui.tsx';

type CodeForm = z.infer<typeof CodeInput>;

/** The ten recovery codes, shown once after they are made. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="notice notice-good" role="status" aria-labelledby="recovery-codes">
      <h3 id="recovery-codes">{msg('account.totp.codes_title')}</h3>
      <p>{msg('account.totp.codes_intro')}</p>
      <ul className="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <CopyButton value={codes.join('\n')} label={msg('account.totp.copy_codes')} small={false} />
        <Button variant="primary" onClick={onDone}>
          {msg('account.totp.codes_done')}
        </Button>
      </div>
    </div>
  );
}

/** Setting the app up: the QR code and the key, then the first code. */
export function Enrol({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const toast = useToast();
  const start = useMutation(trpc.twoStep.startTotp.mutationOptions());
  const form = useForm<CodeForm>({ resolver: zodResolver(CodeInput) });
  const confirm = useMutation(
    trpc.twoStep.confirmTotp.mutationOptions({
      onSuccess: (r) => {
        toast(msg('account.totp.enabled'));
        onCodes(r.recovery_codes);
      },
    }),
  );
  if (!start.data) {
    return (
      <>
        <ErrorNote error={start.error} />
        <Button onClick={() => start.mutate()} busy={start.isPending}>
          {msg('account.totp.set_up')}
        </Button>
      </>
    );
  }
  return (
    <form onSubmit={form.handleSubmit((v) => confirm.mutate(v))} noValidate>
      <p>{msg('account.totp.scan')}</p>
      <img
        className="totp-qr"
        src={start.data.qr_code}
        alt={msg('account.totp.qr_alt')}
        width={200}
        height={200}
      />
      <p>
        {msg('account.totp.key')}: <code className="totp-key">{start.data.secret}</code>{' '}
        <CopyButton value={start.data.secret} label={msg('account.totp.copy_key')} />
      </p>
      <ErrorNote error={confirm.error} />
      <TextField
        label={msg('account.totp.first_code')}
        autoComplete="one-time-code"
        inputMode="numeric"
        error={form.formState.errors.code?.message}
        {...form.register('code')}
      />
      <div className="form-actions">
        <Button onClick={() => start.reset()}>{msg('account.totp.cancel')}</Button>
        <Button type="submit" variant="primary" busy={confirm.isPending}>
          {msg('account.totp.turn_on')}
        </Button>
      </div>
    </form>
  );
}

/** Turning it off or making new recovery codes: both need a fresh code. */
function Manage({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const form = useForm<CodeForm>({ resolver: zodResolver(CodeInput) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.twoStep.status.queryKey() });
  const remove = useMutation(
    trpc.twoStep.removeTotp.mutationOptions({
      onSuccess: async () => {
        toast(msg('account.totp.removed'));
        await refresh();
      },
    }),
  );
  const renew = useMutation(
    trpc.twoStep.renewRecoveryCodes.mutationOptions({ onSuccess: (r) => onCodes(r.recovery_codes) }),
  );
  const run = (m: typeof remove | typeof renew) =>
    form.handleSubmit((v) => {
      m.mutate(v);
      form.reset({ code: '' });
    });
  return (
    <form onSubmit={run(remove)} noValidate>
      <ErrorNote error={remove.error ?? renew.error} />
      <TextField
        label={msg('account.totp.fresh_code')}
        autoComplete="one-time-code"
        hint={msg('account.totp.fresh_hint')}
        error={form.formState.errors.code?.message}
        {...form.register('code')}
      />
      <div className="form-actions">
        <Button onClick={run(renew)} busy={renew.isPending}>
          {msg('account.totp.renew')}
        </Button>
        <Button type="submit" variant="danger" busy={remove.isPending}>
          {msg('account.totp.turn_off')}
        </Button>
      </div>
    </form>
  );
}

/** Account page: the authenticator app as the second step of signing in (issue 45). */
export function TwoStepSection() {
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoStep.status.queryOptions());
  const [codes, setCodes] = useState<string[] | null>(null);
  const showCodes = async (c: string[]) => {
    setCodes(c);
    await queryClient.invalidateQueries({ queryKey: trpc.twoStep.status.queryKey() });
  };
  return (
    <section className="card" aria-labelledby="two-step">
      <h2 id="two-step">{msg('account.totp.title')}</h2>
      {status.isPending ? <Loading /> : null}
      <ErrorNote error={status.error} />
      {status.data ? (
        <p className="hint">
          {status.data.totp_enabled
            ? t('account.totp.on', { count: status.data.recovery_codes_left })
            : msg('account.totp.off')}
        </p>
      ) : null}
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : status.data?.totp_enabled ? (
        <Manage onCodes={showCodes} />
      ) : status.data ? (
        <Enrol onCodes={showCodes} />
      ) : null}
    </section>
  );
}
