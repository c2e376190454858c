import { useQuery } from '@tanstack/react-query';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { msg, t } from '../messages/index.ts';
import { trpc } from '../trpc.ts';
import { TextField } from '../ui.tsx';

// Issue 34: the CC and notify fields of the Send and Bulk send pages.

interface CopiesValues {
  cc?: string | undefined;
  notify?: string | undefined;
}

/** A field's hint, naming the account's default addresses when it has some. */
const hint = (plain: 'copies.cc.hint' | 'copies.notify.hint', list: string[] | undefined) =>
  list?.length ? t(`${plain}_defaults`, { list: list.join(', ') }) : msg(plain);

/** Two fields: who is copied (read-only link, then the signed documents) and who is told when it ends. */
export function CopiesFields<T extends CopiesValues>({
  register,
  errors,
  showDefaults = true,
  legend = msg('copies.legend'),
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
          label={msg('copies.cc')}
          placeholder={msg('copies.cc.placeholder')}
          autoComplete="off"
          hint={hint('copies.cc.hint', defaults.data?.cc)}
          error={errors.cc?.message}
          {...reg('cc')}
        />
        <TextField
          label={msg('copies.notify')}
          placeholder={msg('copies.notify.placeholder')}
          autoComplete="off"
          hint={hint('copies.notify.hint', defaults.data?.notify)}
          error={errors.notify?.message}
          {...reg('notify')}
        />
      </div>
    </fieldset>
  );
}
