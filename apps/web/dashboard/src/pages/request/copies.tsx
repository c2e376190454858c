import { msg } from '../../messages/index.ts';

// Issue 34: who a request is copied to and who is told when it ends (shown when there is anyone).

export function Copies({ cc, notify }: { cc?: string[] | undefined; notify?: string[] | undefined }) {
  if (!cc?.length && !notify?.length) return null;
  return (
    <section aria-labelledby="copies">
      <h2 id="copies">{msg('requests.copies.title')}</h2>
      <dl className="copies">
        {cc?.length ? (
          <>
            <dt>{msg('requests.copies.cc')}</dt>
            <dd>
              {cc.join(', ')}
              <div className="hint">{msg('requests.copies.cc_hint')}</div>
            </dd>
          </>
        ) : null}
        {notify?.length ? (
          <>
            <dt>{msg('requests.copies.notified')}</dt>
            <dd>
              {notify.join(', ')}
              <div className="hint">{msg('requests.copies.notified_hint')}</div>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
