import { useMutation, useQuery } from '@tanstack/react-query';
import type { SelectHTMLAttributes } from 'react';
import { forwardRef } from 'react';
import { useChangeFeedback } from '../feedback.ts';
import { msg, t } from '../messages/index.ts';
import { trpc } from '../trpc.ts';
import { SelectField } from '../ui.tsx';

// The brand choice (issue 44 item 1) on the Send page and on a template: the account side's
// brands, as REST's `brand_id` and MCP's `brand_id` offer them (brands.list; get_account lists
// the same). Nothing is shown when the account has no brand.

const useBrands = () => useQuery(trpc.brands.list.queryOptions({ limit: 100 }));

const options = (brands: { id: number; name: string; is_default: boolean }[], none: string) => [
  { value: '', label: none },
  ...brands.map((b) => ({
    value: String(b.id),
    label: b.is_default ? `${b.name} (${msg('brands.default')})` : b.name,
  })),
];

/** The Send page's choice, registered on its form (`brand_id`, '' for the template's or default). */
export const BrandSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(
  function BrandSelect(props, ref) {
    const brands = useBrands();
    if (!brands.data?.data.length) return null;
    return (
      <SelectField
        ref={ref}
        label={msg('brands.choice')}
        options={options(brands.data.data, msg('brands.choice.inherit'))}
        {...props}
      />
    );
  },
);

/** A template's brand, saved when changed (templates.update's `brand_id`; '' clears it). */
export function TemplateBrandSelect({
  template,
}: {
  template: { id: number; name: string; brand_id?: number | undefined };
}) {
  const brands = useBrands();
  const { announce } = useChangeFeedback(trpc.templates.pathKey());
  const save = useMutation(trpc.templates.update.mutationOptions(announce(msg('brands.choice.saved'))));
  if (!brands.data?.data.length) return null;
  return (
    <SelectField
      label={msg('brands.choice')}
      aria-label={t('brands.choice.template_label', { name: template.name })}
      value={template.brand_id ? String(template.brand_id) : ''}
      disabled={save.isPending}
      onChange={(e) =>
        save.mutate({ id: template.id, brand_id: e.target.value ? Number(e.target.value) : null })
      }
      options={options(brands.data.data, msg('brands.choice.default'))}
    />
  );
}
