import { EMAIL_KINDS, EMAIL_VARIABLES } from '@esign/core/schemas/brand-email';
import { LANGUAGE_NAMES, LOCALES, type Locale } from '@esign/i18n';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChangeFeedback } from '../../feedback.ts';
import { msg, t } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Button, ErrorNote, Loading, SelectField, TextArea, TextField } from '../../ui.tsx';
import type { BrandDetail } from './brand-form.tsx';

// A brand's own email words per kind and language (issue 44 item 3), and the preview: the email
// exactly as it goes out (HTML and text parts), composed by the server's sending code
// (brands.preview) over sample data, never re-created here. The HTML part is shown in a sandboxed
// frame: no script runs in it and it shares nothing with the dashboard.

type Kind = (typeof EMAIL_KINDS)[number];
type Texts = Record<string, Record<string, { subject: string; body: string }>>;

const KIND_LABEL = {
  invitation: 'brands.words.kind.invitation',
  reminder: 'brands.words.kind.reminder',
  next_signer: 'brands.words.kind.next_signer',
} as const;

const VARIABLES = Object.keys(EMAIL_VARIABLES)
  .map((v) => `{{${v}}}`)
  .join(', ');

/** The preview of one kind and language, with the words as they are in the form. */
function Preview({
  input,
}: {
  input: { id: number; kind: Kind; locale: Locale; text?: { subject: string; body: string } };
}) {
  const preview = useQuery(trpc.brands.preview.queryOptions(input));
  if (preview.isPending) return <Loading />;
  if (preview.error) return <ErrorNote error={preview.error} />;
  return (
    <section
      aria-label={msg('brands.words.preview_title')}
      className="email-preview"
      data-testid="email-preview"
    >
      <h3>{msg('brands.words.preview_title')}</h3>
      <p data-testid="preview-subject">
        {t('brands.words.preview_subject', { subject: preview.data.subject })}
      </p>
      <h4>{msg('brands.words.preview_html')}</h4>
      <iframe
        title={msg('brands.words.preview_html')}
        sandbox=""
        srcDoc={preview.data.html}
        className="email-frame"
      />
      <h4>{msg('brands.words.preview_text')}</h4>
      <pre data-testid="preview-text" className="email-text">
        {preview.data.text}
      </pre>
    </section>
  );
}

/** Which email kind and which language the words are for. */
function WordsChoice(p: { kind: Kind; locale: Locale; choose: (k: Kind, l: Locale) => void }) {
  return (
    <div className="form-row">
      <SelectField
        label={msg('brands.words.kind')}
        value={p.kind}
        onChange={(e) => p.choose(e.target.value as Kind, p.locale)}
        options={EMAIL_KINDS.map((k) => ({ value: k, label: msg(KIND_LABEL[k]) }))}
      />
      <SelectField
        label={msg('brands.words.locale')}
        value={p.locale}
        onChange={(e) => p.choose(p.kind, e.target.value as Locale)}
        options={LOCALES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
      />
    </div>
  );
}

export function EmailWords({ brand }: { brand: BrandDetail }) {
  const { toast, refresh } = useChangeFeedback(trpc.brands.pathKey());
  const [kind, setKind] = useState<Kind>('invitation');
  const [locale, setLocale] = useState<Locale>('en');
  const texts = brand.email_texts as Texts;
  const stored = texts[kind]?.[locale];
  const [draft, setDraft] = useState<{ subject: string; body: string }>(stored ?? { subject: '', body: '' });
  const [shown, setShown] = useState<null | {
    kind: Kind;
    locale: Locale;
    text?: { subject: string; body: string };
  }>(null);
  // A refusal shows beside the words (ErrorNote), naming the part and the variable.
  const save = useMutation(
    trpc.brands.update.mutationOptions({
      onSuccess: async () => {
        toast(msg('brands.words.saved'));
        await refresh();
      },
    }),
  );
  const edit = (part: Partial<{ subject: string; body: string }>) => {
    save.reset();
    setDraft((old) => ({ ...old, ...part }));
  };
  const choose = (k: Kind, l: Locale) => {
    setKind(k);
    setLocale(l);
    setDraft(texts[k]?.[l] ?? { subject: '', body: '' });
    setShown(null);
    save.reset();
  };
  const withDraft = (text: { subject: string; body: string } | null): Texts => {
    const forKind = { ...texts[kind] };
    if (text) forKind[locale] = text;
    else delete forKind[locale];
    return { ...texts, [kind]: forKind };
  };
  const own = draft.subject.trim() !== '' || draft.body.trim() !== '';
  return (
    <div className="email-words">
      <WordsChoice kind={kind} locale={locale} choose={choose} />
      <p className="hint">{stored ? msg('brands.words.own') : msg('brands.words.service')}</p>
      <TextField
        label={msg('brands.words.subject')}
        value={draft.subject}
        maxLength={300}
        onChange={(e) => edit({ subject: e.target.value })}
      />
      <TextArea
        label={msg('brands.words.body')}
        rows={8}
        value={draft.body}
        hint={t('brands.words.variables', { list: VARIABLES, link: '{{link}}' })}
        onChange={(e) => edit({ body: e.target.value })}
      />
      <ErrorNote error={save.error} />
      <div className="button-row">
        <Button
          variant="primary"
          busy={save.isPending}
          disabled={!own}
          onClick={() => save.mutate({ id: brand.id, email_texts: withDraft(draft) })}
        >
          {msg('brands.words.save')}
        </Button>
        {stored ? (
          <Button onClick={() => save.mutate({ id: brand.id, email_texts: withDraft(null) })}>
            {msg('brands.words.use_service')}
          </Button>
        ) : null}
        <Button onClick={() => setShown({ kind, locale, ...(own ? { text: draft } : {}) })}>
          {msg('brands.words.preview')}
        </Button>
      </div>
      {shown ? <Preview input={{ id: brand.id, ...shown }} /> : null}
    </div>
  );
}
