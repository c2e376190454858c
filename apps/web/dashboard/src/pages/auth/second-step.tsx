import { SecondStepInput } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { msg } from '../../messages/index.ts';
import { trpc, trpcClient } from '../../trpc.ts';
import { Button, ErrorNote, TextField } from '../../ui.tsx';

const Form = SecondStepInput.pick({ code: true });

/** What a first step answers when a second is needed: its token, and which second steps the user has. */
export interface SecondStepChallenge {
  token: string;
  methods: Array<'totp' | 'passkey'>;
}

/** The second step with a passkey (issue 45 item 2): one of the user's passkeys confirms the sign-in. */
function PasskeyStep({ token, onSignedIn }: { token: string; onSignedIn: () => unknown }) {
  const use = useMutation({
    mutationFn: async () => {
      const options = await trpcClient.passkeys.startSecondStep.mutate({ token });
      const response = await startAuthentication({
        // The JSON options as the server's library wrote them (tRPC's inferred type is wider).
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      return trpcClient.passkeys.completeSecondStep.mutate({ token, response });
    },
    onSuccess: () => onSignedIn(),
  });
  return (
    <div className="passkey-step">
      <p className="lead">{msg('auth.second.passkey_lead')}</p>
      <ErrorNote error={use.error} />
      <Button variant="primary" busy={use.isPending} onClick={() => use.mutate()}>
        {msg('auth.second.use_passkey')}
      </Button>
    </div>
  );
}

/**
 * The second step of a sign-in (issue 45): the challenge `token` the first step answered with, and
 * a code from the authenticator app or a recovery code. `onSignedIn` runs once the session cookie is set.
 */
export function SecondStepForm({
  token,
  methods = ['totp'],
  onSignedIn,
  onStartOver,
}: {
  token: string;
  methods?: Array<'totp' | 'passkey'>;
  onSignedIn: () => unknown;
  onStartOver: () => void;
}) {
  const form = useForm<z.infer<typeof Form>>({ resolver: zodResolver(Form) });
  const complete = useMutation(
    trpc.auth.completeSecondStep.mutationOptions({ onSuccess: () => onSignedIn() }),
  );
  return (
    <form
      onSubmit={form.handleSubmit((v) => {
        complete.mutate({ token, code: v.code });
        form.setValue('code', '');
      })}
      noValidate
      aria-labelledby="second-step"
    >
      <h2 id="second-step">{msg('auth.second.title')}</h2>
      {methods.includes('passkey') ? <PasskeyStep token={token} onSignedIn={onSignedIn} /> : null}
      {methods.includes('totp') ? (
        <>
          <p className="lead">
            {msg(methods.includes('passkey') ? 'auth.second.or_code' : 'auth.second.lead')}
          </p>
          <ErrorNote error={complete.error} />
          <TextField
            label={msg('auth.second.code')}
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            hint={msg('auth.second.code_hint')}
            error={form.formState.errors.code?.message}
            {...form.register('code')}
          />
        </>
      ) : null}
      <div className="form-actions spread">
        <button type="button" className="link-button" onClick={onStartOver}>
          {msg('auth.second.start_over')}
        </button>
        {methods.includes('totp') ? (
          <Button type="submit" variant="primary" busy={complete.isPending}>
            {msg('auth.second.submit')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
