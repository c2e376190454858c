import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { useChangeFeedback } from '../../feedback.ts';
import { msg, tx } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Button, ErrorNote, Loading, TextField } from '../../ui.tsx';

const CountryInput = z.object({
  billing_country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, msg('billing.country.invalid')),
});

/** A billing country is needed before buying; set it here (the same procedure as the Account page). */
export function BillingCountry() {
  const { toast, refresh } = useChangeFeedback(trpc.sessions.profile.queryKey());
  const profile = useQuery(trpc.sessions.profile.queryOptions());
  const form = useForm<z.input<typeof CountryInput>>({
    resolver: zodResolver(CountryInput),
    defaultValues: { billing_country: '' },
  });
  const save = useMutation(
    trpc.sessions.updateProfile.mutationOptions({
      onSuccess: async () => {
        toast(msg('billing.country.saved'));
        await refresh();
      },
    }),
  );
  if (profile.isPending) return <Loading />;
  if (!profile.data) return <ErrorNote error={profile.error} />;
  if (profile.data.billing_country) {
    return (
      <p className="hint">
        {tx('billing.country.current', {
          country: profile.data.billing_country,
          strong: (chunks) => <strong>{chunks}</strong>,
          link: (chunks) => <Link to="/account">{chunks}</Link>,
        })}
      </p>
    );
  }
  return (
    <form
      className="card"
      aria-labelledby="country"
      noValidate
      onSubmit={form.handleSubmit((v) =>
        save.mutate({ billing_country: v.billing_country.trim().toUpperCase() }),
      )}
    >
      <h2 id="country">{msg('billing.country.title')}</h2>
      <p className="hint">{msg('billing.country.intro')}</p>
      <ErrorNote error={save.error} />
      <div className="narrow">
        <TextField
          label={msg('billing.country.label')}
          placeholder={msg('billing.country.placeholder')}
          maxLength={2}
          autoComplete="country"
          required
          hint={msg('billing.country.hint')}
          error={form.formState.errors.billing_country?.message}
          {...form.register('billing_country')}
        />
      </div>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={save.isPending}>
          {msg('billing.country.save')}
        </Button>
      </div>
    </form>
  );
}
