import { SecondStepInput } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { msg } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Button, ErrorNote, TextField } from '../../ui.tsx';

const Form = SecondStepInput.pick({ code: true });

/**
 * The second step of a sign-in (issue 45): the challenge `token` the first step answered with, and
 * a code from the authenticator app or a recovery code. `onSignedIn` runs once the session cookie is set.
 */
export function SecondStepForm({
  token,
  onSignedIn,
  onStartOver,
}: {
  token: string;
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
      <p className="lead">{msg('auth.second.lead')}</p>
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
      <div className="form-actions spread">
        <button type="button" className="link-button" onClick={onStartOver}>
          {msg('auth.second.start_over')}
        </button>
        <Button type="submit" variant="primary" busy={complete.isPending}>
          {msg('auth.second.submit')}
        </Button>
      </div>
    </form>
  );
}
