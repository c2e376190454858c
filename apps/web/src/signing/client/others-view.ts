import { isImageFieldType } from '@esign/domain';
import { h } from './dom.ts';
import { areaToPercent } from './geometry.ts';
import { tr } from './i18n.ts';
import type { FieldValue, OpenResult } from './types.ts';
import { valueText } from './values.ts';

type Filled = OpenResult['filled_by_others'][number];

/** What a filled value says in words (screen readers) or shows as text on the page. */
function words(item: Filled): string {
  if (item.type === 'checkbox') return item.value === true ? tr('value.checked') : tr('value.not_checked');
  if (isImageFieldType(item.type)) return tr('sign.a_picture');
  // Numbers and dates as this page's reader writes them (issue 42.6).
  return Array.isArray(item.value) ? item.value.join(', ') : valueText(item, item.value as FieldValue);
}

function shown(item: Filled): Node {
  if (isImageFieldType(item.type) && typeof item.value === 'string' && item.value.startsWith('data:image/'))
    return h('img', { src: item.value, alt: '' });
  if (item.type === 'checkbox')
    return h('span', { class: 'fv', 'aria-hidden': 'true' }, item.value ? '✓' : '');
  return h('span', { class: 'fv', 'aria-hidden': 'true' }, words(item));
}

/**
 * What other signers filled in and signed, drawn read-only on one page where the sealed document
 * will show it (signing.open's `filled_by_others`); one plain box per area, named for screen
 * readers ("Signed by Ann Lee (Landlord): Name, Ann Lee").
 */
export function othersOnPage(open: OpenResult, docIndex: number, pageNumber: number): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (const item of open.filled_by_others) {
    for (const area of item.areas) {
      if (area.document !== docIndex || area.page !== pageNumber) continue;
      const who = `${item.signer_name ?? tr('sign.other_signer')}${item.role ? ` (${item.role})` : ''}`;
      const el = h(
        'div',
        { class: `field other t-${item.type}`, 'data-other-field': item.name },
        shown(item),
        h(
          'span',
          { class: 'sr-only' },
          tr('sign.other_signed_by', { who, field: item.name, value: words(item) }),
        ),
      );
      el.title = tr('sign.other_filled_by', { who });
      Object.assign(el.style, areaToPercent(area));
      out.push(el);
    }
  }
  return out;
}
