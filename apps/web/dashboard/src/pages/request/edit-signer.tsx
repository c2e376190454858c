import { LANGUAGE_NAMES, LOCALES } from '@esign/i18n';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useChangeFeedback } from '../../feedback.ts';
import { msg } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Button, ErrorNote, SelectField, TextField } from '../../ui.tsx';
import type { Signer } from './signer-row.tsx';

/**
 * A signer's name, email, phone and language, saved, and the link sent again on request (by the
 * signer's channels: a corrected phone number gets the SMS). Issue 42 item 5.
 */
/** The signer's language, or the request's default. */
function LanguageField({ value, onChange }: { value: string; onChange: (locale: string) => void }) {
  return (
    <SelectField
      label={msg('requests.edit_signer.language')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      options={[
        { value: '', label: msg('requests.edit_signer.language_default') },
        ...LOCALES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] })),
      ]}
    />
  );
}

export function EditSigner({
  signer,
  requestId,
  onClose,
}: {
  signer: Signer;
  requestId: number;
  onClose: () => void;
}) {
  const { toast, refresh } = useChangeFeedback(trpc.signatureRequests.get.queryKey({ id: requestId }));
  const [name, setName] = useState(signer.name ?? '');
  const [email, setEmail] = useState(signer.email ?? '');
  const [phone, setPhone] = useState(signer.phone ?? '');
  const [locale, setLocale] = useState(signer.locale ?? '');
  const update = useMutation(
    trpc.signers.update.mutationOptions({
      onSuccess: async (_, v) => {
        toast(v.resend ? msg('requests.edit_signer.saved_resent') : msg('requests.edit_signer.saved'));
        onClose();
        await refresh();
      },
    }),
  );
  const save = (resend: boolean) =>
    update.mutate({
      id: signer.id,
      name: name.trim() || null,
      email: email.trim() || null,
      phone: phone.trim() || null,
      locale: locale || null,
      resend,
    });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save(false);
      }}
      noValidate
    >
      <ErrorNote error={update.error} />
      <TextField
        label={msg('requests.edit_signer.name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <TextField
        label={msg('requests.edit_signer.email')}
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <TextField
        label={msg('requests.edit_signer.phone')}
        type="tel"
        autoComplete="off"
        hint={msg('requests.edit_signer.phone_hint')}
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
      />
      <LanguageField value={locale} onChange={setLocale} />
      <div className="form-actions">
        <Button type="submit" busy={update.isPending && !update.variables?.resend}>
          {msg('requests.edit_signer.save')}
        </Button>
        {signer.sent_at ? (
          <Button
            variant="primary"
            onClick={() => save(true)}
            busy={update.isPending && update.variables?.resend === true}
          >
            {msg('requests.edit_signer.save_resend')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
