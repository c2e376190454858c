import { AlertDialog, Dialog, Progress, Toast } from 'radix-ui';
import {
  type ButtonHTMLAttributes,
  createContext,
  type FormEventHandler,
  forwardRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useCallback,
  useContext,
  useId,
  useState,
} from 'react';
import { msg, t } from './messages/index.ts';
import { errorMessage } from './trpc.ts';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export const Button = forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean; small?: boolean }
>(function Button(
  { variant = 'secondary', busy = false, small = false, className, children, onClick, ...rest },
  ref,
) {
  // While busy the button stays focusable (a disabled button would drop keyboard focus to the page)
  // and ignores clicks, which also stops a second submit of its form.
  return (
    <button
      ref={ref}
      type="button"
      className={`btn btn-${variant}${small ? ' btn-small' : ''}${className ? ` ${className}` : ''}`}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      {...rest}
      onClick={(e) => {
        if (busy) e.preventDefault();
        else onClick?.(e);
      }}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
});

interface FieldProps {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

export const TextField = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & FieldProps>(
  function TextField({ label, error, hint, id, ...rest }, ref) {
    const auto = useId();
    const inputId = id ?? auto;
    return (
      <div className="field">
        <label htmlFor={inputId}>{label}</label>
        <input
          ref={ref}
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? `${inputId}-note` : undefined}
          {...rest}
        />
        <FieldNote id={`${inputId}-note`} error={error} hint={hint} />
      </div>
    );
  },
);

export const TextArea = forwardRef<
  HTMLTextAreaElement,
  TextareaHTMLAttributes<HTMLTextAreaElement> & FieldProps
>(function TextArea({ label, error, hint, id, ...rest }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <textarea
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${inputId}-note`}
        {...rest}
      />
      <FieldNote id={`${inputId}-note`} error={error} hint={hint} />
    </div>
  );
});

export const SelectField = forwardRef<
  HTMLSelectElement,
  SelectHTMLAttributes<HTMLSelectElement> & FieldProps & { options: { value: string; label: string }[] }
>(function SelectField({ label, error, hint, id, options, ...rest }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <select ref={ref} id={inputId} aria-describedby={`${inputId}-note`} {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNote id={`${inputId}-note`} error={error} hint={hint} />
    </div>
  );
});

export const CheckboxField = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; hint?: ReactNode }
>(function CheckboxField({ label, hint, id, ...rest }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className="check">
      <input ref={ref} type="checkbox" id={inputId} {...rest} />
      <label htmlFor={inputId}>
        {label}
        {hint ? <span className="hint"> {hint}</span> : null}
      </label>
    </div>
  );
});

function FieldNote({ id, error, hint }: { id: string; error?: string | undefined; hint?: ReactNode }) {
  if (error) {
    return (
      <p id={id} className="field-error" role="alert">
        {error}
      </p>
    );
  }
  return hint ? (
    <p id={id} className="hint">
      {hint}
    </p>
  ) : null;
}

export function PageHeader({
  title,
  children,
  actions,
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        <h1 tabIndex={-1}>{title}</h1>
        {children ? <p className="lead">{children}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}

export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="empty">
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      {title ? <strong>{title} </strong> : null}
      {errorMessage(error)}
    </div>
  );
}

export function Loading({ label = msg('ui.loading') }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: string; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

export const statusTone = (status: string) =>
  ({
    completed: 'good',
    signed: 'good',
    succeeded: 'good',
    sent: 'info',
    in_progress: 'info',
    viewed: 'info',
    pending: 'info',
    declined: 'bad',
    failed: 'bad',
    canceled: 'muted',
    expired: 'muted',
    waiting: 'muted',
    revoked: 'muted',
  })[status] ?? 'neutral';

export function CopyButton({
  value,
  label = msg('ui.copy'),
  small = true,
}: {
  value: string;
  label?: string;
  small?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API unavailable (insecure origin): fall back to a hidden textarea.
      const ta = document.createElement('textarea');
      ta.value = value;
      document.body.append(ta);
      ta.select();
      document.execCommand('copy');
      ta.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <Button small={small} onClick={copy} aria-live="polite">
      {copied ? msg('ui.copied') : label}
    </Button>
  );
}

export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(value * 100);
  return (
    <div className="progress-wrap">
      <Progress.Root className="progress" value={percent} aria-label={label}>
        <Progress.Indicator
          className="progress-bar"
          style={{ transform: `translateX(-${100 - percent}%)` }}
        />
      </Progress.Root>
      <span className="hint" aria-hidden="true">
        {t('ui.percent', { percent })}
      </span>
    </div>
  );
}

export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog" aria-describedby={description ? undefined : undefined}>
          <Dialog.Title>{title}</Dialog.Title>
          {description ? <Dialog.Description className="lead">{description}</Dialog.Description> : null}
          {children}
          <Dialog.Close asChild>
            <button type="button" className="dialog-x" aria-label={msg('ui.close')}>
              ×
            </button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Asks before something that cannot be undone. */
export function Confirm({
  trigger,
  title,
  description,
  confirmLabel,
  onConfirm,
  danger = true,
}: {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  danger?: boolean;
}) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title>{title}</AlertDialog.Title>
          <AlertDialog.Description className="lead">{description}</AlertDialog.Description>
          <div className="form-actions">
            <AlertDialog.Cancel asChild>
              <Button>{msg('ui.keep_it')}</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

interface ToastItem {
  id: number;
  text: string;
  tone: 'good' | 'bad';
}
const ToastContext = createContext<(text: string, tone?: 'good' | 'bad') => void>(() => {});
export const useToast = () => useContext(ToastContext);

export function Toasts({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const push = useCallback((text: string, tone: 'good' | 'bad' = 'good') => {
    setItems((list) => [...list, { id: Date.now() + Math.random(), text, tone }]);
  }, []);
  return (
    <ToastContext.Provider value={push}>
      <Toast.Provider swipeDirection="right" duration={5000} label={msg('ui.notification')}>
        {children}
        {items.map((t) => (
          <Toast.Root
            key={t.id}
            className={`toast toast-${t.tone}`}
            type={t.tone === 'bad' ? 'foreground' : 'background'}
            onOpenChange={(open) => {
              if (!open) setItems((list) => list.filter((x) => x.id !== t.id));
            }}
          >
            <Toast.Description>{t.text}</Toast.Description>
            <Toast.Close className="toast-x" aria-label={msg('ui.dismiss')}>
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        {/* Radix puts the key's name where the label says {hotkey}. */}
        <Toast.Viewport className="toast-viewport" label={t('ui.notifications', { hotkey: '{hotkey}' })} />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}

/** The primary submit button at the foot of a form. */
export function SubmitRow({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <div className="form-actions">
      <Button type="submit" variant="primary" busy={busy}>
        {children}
      </Button>
    </div>
  );
}

/**
 * A form on a card of its own: a heading that names it, the mutation's error, the fields, and the
 * submit button. `intro` stands between the heading and the error.
 */
export function CardForm({
  id,
  title,
  intro,
  onSubmit,
  error,
  busy,
  submitLabel,
  children,
}: {
  id: string;
  title: ReactNode;
  intro?: ReactNode;
  onSubmit: FormEventHandler<HTMLFormElement>;
  error: unknown;
  busy: boolean;
  submitLabel: ReactNode;
  children: ReactNode;
}) {
  return (
    <form className="card" onSubmit={onSubmit} noValidate aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {intro}
      <ErrorNote error={error} />
      {children}
      <SubmitRow busy={busy}>{submitLabel}</SubmitRow>
    </form>
  );
}

/** The button under a cursor-paged list (an infinite query); nothing once the last page is in. */
export function ShowMore({
  list,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  if (!list.hasNextPage) return null;
  return (
    <Button onClick={() => list.fetchNextPage()} busy={list.isFetchingNextPage}>
      {msg('ui.show_more')}
    </Button>
  );
}
