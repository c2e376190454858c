import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChangeFeedback } from '../feedback.ts';
import { msg, t } from '../messages/index.ts';
import type { Outputs } from '../router-types.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { Badge, Button, Confirm, EmptyState, ErrorNote, Loading, Modal, PageHeader } from '../ui.tsx';
import { AdminOnly } from './admin-only.tsx';
import { BrandForm, type BrandValues } from './brands/brand-form.tsx';
import { EmailWords } from './brands/email-words.tsx';
import './brands/brands.css';

// /brands (issue 44 item 1): the account side's brands, each with its logo, colours and
// actions (edit, email words with preview, make default, delete), and Add. Admins only, as the
// procedures that change brands; everyone chooses among them on the Send page.

type BrandItem = Outputs['brands']['list']['data'][number];

/** One brand: logo, name, colours, the default mark and what an admin does with it. */
/** A colour's sample, painted through a custom property (the page's CSP allows no inline style). */
function Swatch({ color }: { color: string }) {
  return (
    <span className="swatch" data-color={color} ref={(el) => el?.style.setProperty('--swatch', color)} />
  );
}

/** A brand's logo, name, default badge and colours. */
function BrandSummary({ item, logo }: { item: BrandItem; logo: string | undefined }) {
  return (
    <>
      <div className="brand-head">
        {logo ? (
          <img className="brand-logo" src={logo} alt={t('brands.logo_of', { name: item.name })} />
        ) : null}
        <strong dir="auto">{item.name}</strong>{' '}
        {item.is_default ? <Badge tone="good">{msg('brands.default')}</Badge> : null}
      </div>
      <p className="hint">
        <Swatch color={item.primary_color} />
        <Swatch color={item.accent_color} />
        {t('brands.colors', { primary: item.primary_color, accent: item.accent_color })}
      </p>
    </>
  );
}

/** A brand's own email words, in a dialog. */
function WordsDialog(p: {
  item: BrandItem;
  brand: Parameters<typeof EmailWords>[0]['brand'] | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Modal open={p.open} onOpenChange={p.onOpenChange} title={t('brands.words_title', { name: p.item.name })}>
      {p.brand ? <EmailWords brand={p.brand} /> : <Loading />}
    </Modal>
  );
}

function BrandCard({ item }: { item: BrandItem }) {
  const { announce } = useChangeFeedback(trpc.brands.pathKey());
  const [dialog, setDialog] = useState<'edit' | 'words' | null>(null);
  const detail = useQuery(trpc.brands.get.queryOptions({ id: item.id }));
  const update = useMutation(
    trpc.brands.update.mutationOptions({
      ...announce(msg('brands.saved')),
      onSettled: () => setDialog(null),
    }),
  );
  const makeDefault = useMutation(
    trpc.brands.update.mutationOptions(announce(t('brands.made_default', { name: item.name }))),
  );
  const remove = useMutation(trpc.brands.delete.mutationOptions(announce(msg('brands.deleted'))));
  const logo = detail.data?.logo?.data_uri;
  return (
    <li className="card brand-card" aria-label={item.name}>
      <BrandSummary item={item} logo={logo} />
      <div className="row-actions">
        <Button
          small
          onClick={() => setDialog('edit')}
          aria-label={t('brands.edit_title', { name: item.name })}
        >
          {msg('brands.edit')}
        </Button>
        <Button
          small
          onClick={() => setDialog('words')}
          aria-label={t('brands.words_title', { name: item.name })}
        >
          {msg('brands.words')}
        </Button>
        {item.is_default ? null : (
          <Button
            small
            busy={makeDefault.isPending}
            onClick={() => makeDefault.mutate({ id: item.id, is_default: true })}
          >
            {msg('brands.make_default')}
          </Button>
        )}
        <Confirm
          trigger={
            <Button small variant="danger">
              {msg('brands.delete')}
            </Button>
          }
          title={t('brands.delete_title', { name: item.name })}
          description={msg('brands.delete_body')}
          confirmLabel={msg('brands.delete')}
          onConfirm={() => remove.mutate({ id: item.id })}
        />
      </div>
      <Modal
        open={dialog === 'edit'}
        onOpenChange={(o) => setDialog(o ? 'edit' : null)}
        title={t('brands.edit_title', { name: item.name })}
      >
        {detail.data ? (
          <BrandForm
            brand={detail.data}
            busy={update.isPending}
            error={update.error}
            submitLabel={msg('brands.save')}
            onSubmit={(v: BrandValues) => update.mutate({ id: item.id, ...v })}
          />
        ) : (
          <Loading />
        )}
      </Modal>
      <WordsDialog
        item={item}
        brand={detail.data}
        open={dialog === 'words'}
        onOpenChange={(o) => setDialog(o ? 'words' : null)}
      />
    </li>
  );
}

export function BrandsPage({ session }: { session: Session }) {
  const { toast, refresh } = useChangeFeedback(trpc.brands.pathKey());
  const [adding, setAdding] = useState(false);
  const admin = session.user.role === 'admin';
  const list = useQuery({ ...trpc.brands.list.queryOptions({ limit: 100 }), enabled: admin });
  const create = useMutation(
    trpc.brands.create.mutationOptions({
      onSuccess: async () => {
        setAdding(false);
        toast(msg('brands.created'));
        await refresh();
      },
    }),
  );
  if (!admin) return <AdminOnly title={msg('brands.title')} what={msg('brands.admin_only_what')} />;
  const addButton = (label: string) => (
    <Button variant="primary" onClick={() => setAdding(true)}>
      {label}
    </Button>
  );
  return (
    <>
      <PageHeader title={msg('brands.title')} actions={addButton(msg('brands.add'))}>
        {t('brands.lead', { environment: session.environment })}
      </PageHeader>
      <Modal open={adding} onOpenChange={setAdding} title={msg('brands.add_title')}>
        <BrandForm
          brand={null}
          busy={create.isPending}
          error={create.error}
          submitLabel={msg('brands.add')}
          onSubmit={(v) => {
            // Unticked, the server decides: the first brand of an account side is its default.
            const { logo, is_default, ...rest } = v;
            create.mutate({ ...rest, ...(logo ? { logo } : {}), ...(is_default ? { is_default } : {}) });
          }}
        />
      </Modal>
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error} />
      {list.data?.data.length === 0 ? (
        <EmptyState title={msg('brands.empty_title')} action={addButton(msg('brands.add_first'))}>
          {msg('brands.empty')}
        </EmptyState>
      ) : null}
      <ul className="brand-list">
        {list.data?.data.map((b) => (
          <BrandCard key={b.id} item={b} />
        ))}
      </ul>
    </>
  );
}
