import { useQueryClient } from '@tanstack/react-query';
import { forwardRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { isServerPage } from '../../links.ts';
import { msg } from '../../messages/index.ts';
import { sessionQuery } from '../../session.tsx';
import { TextField } from '../../ui.tsx';

type InputProps = InputHTMLAttributes<HTMLInputElement> & { error?: string | undefined };

/**
 * What every sign-in path does once the server has set the session cookie: reload the session
 * and go to `to`. `clearHash` first drops an emailed `#token=` from the address bar and history.
 */
export function useSignedIn(): (to?: string, opts?: { clearHash?: boolean }) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (to = '/', { clearHash = false } = {}) => {
    if (clearHash) window.history.replaceState(null, '', window.location.pathname);
    if (isServerPage(to)) {
      window.location.assign(to);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
    await navigate(to, { replace: true });
  };
}

export const NameField = forwardRef<HTMLInputElement, InputProps>(function NameField(props, ref) {
  return <TextField ref={ref} label={msg('auth.field.name')} autoComplete="name" {...props} />;
});

export const EmailField = forwardRef<HTMLInputElement, InputProps>(function EmailField(props, ref) {
  return (
    <TextField ref={ref} label={msg('auth.field.email')} type="email" autoComplete="username" {...props} />
  );
});

/** A password being chosen; `label` and `hint` change for the second, confirming field. */
export const NewPasswordField = forwardRef<
  HTMLInputElement,
  InputProps & { label?: string; hint?: ReactNode }
>(function NewPasswordField(
  { label = msg('auth.field.password'), hint = msg('auth.field.password_hint'), ...props },
  ref,
) {
  return (
    <TextField ref={ref} label={label} type="password" autoComplete="new-password" hint={hint} {...props} />
  );
});
