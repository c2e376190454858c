import { useQuery } from '@tanstack/react-query';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { trpc } from '../trpc.ts';
import { TextField } from '../ui.tsx';

// Issue 34: the CC and notify fields of the Send and Bulk send pages.

interface CopiesValues {
  cc?: string | undefined;
  notify?: string | undefined;
}

const alsoLine = (what: string, list: string[] | undefined) =>
  list?.length ? ` Your account also ${what} ${list.join(', ')}.` : '';

/** Two fields: who is copied (read-only link, then the signed documents) and who is told when it ends. */
export function CopiesFields<T extends CopiesValues>({
  register,
  errors,
  showDefaults = true,
  legend = 'Copies and notices (optional)',
}: {
  legend?: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<CopiesValues>;
  /** Name the account's defaults under the fields (the Send pages; not the page that sets them). */
  showDefaults?: boolean;
}) {
  const query = useQuery({ ...trpc.recipients.defaults.queryOptions(), enabled: showDefaults });
  const defaults = showDefaults ? query : { data: undefined };
  const reg = register as unknown as UseFormRegister<CopiesValues>;
  return (
    <fieldset className="fieldset">
      <legend>{legend}</legend>
      <div className="grid-2">
        <TextField
          label="CC"
          placeholder="lawyer@example.com"
          autoComplete="off"
          hint={`Copied on the request: a read-only link when it is sent, the signed documents when it is completed. Never asked to sign.${alsoLine('copies', defaults.data?.cc)}`}
          error={errors.cc?.message}
          {...reg('cc')}
        />
        <TextField
          label="Notify when it ends"
          placeholder="office@example.com"
          autoComplete="off"
          hint={`Told when the request is completed, declined, expires or is canceled.${alsoLine('notifies', defaults.data?.notify)}`}
          error={errors.notify?.message}
          {...reg('notify')}
        />
      </div>
    </fieldset>
  );
}
