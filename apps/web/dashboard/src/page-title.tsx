import { type ReactNode, useEffect } from 'react';
import { useParams } from 'react-router';
import { type DashboardMessageKey, msg, t } from './messages/index.ts';

/** The catalogue keys of page titles: a page's name (`nav.*`) or a title of its own (`title.*`). */
export type TitleKey = Extract<DashboardMessageKey, `nav.${string}` | `title.${string}`>;

/**
 * Gives the browser tab the page's own title from the catalogue ("Templates · E-Signature"), so
 * tabs, history and screen readers tell the pages apart. `{id}` in a title is the route's `:id`.
 */
export function PageTitle({ title, children }: { title: TitleKey; children: ReactNode }) {
  const { id } = useParams();
  const page = id === undefined ? msg(title) : t(title, { id });
  useEffect(() => {
    document.title = t('title.page', { page, brand: msg('shell.brand') });
  }, [page]);
  return children;
}
