// Issue 34: who a request is copied to and who is told when it ends (shown when there is anyone).

export function Copies({ cc, notify }: { cc?: string[] | undefined; notify?: string[] | undefined }) {
  if (!cc?.length && !notify?.length) return null;
  return (
    <section aria-labelledby="copies">
      <h2 id="copies">Copies and notices</h2>
      <dl className="copies">
        {cc?.length ? (
          <>
            <dt>CC</dt>
            <dd>
              {cc.join(', ')}
              <div className="hint">Read-only link when sent; the signed documents when completed.</div>
            </dd>
          </>
        ) : null}
        {notify?.length ? (
          <>
            <dt>Notified</dt>
            <dd>
              {notify.join(', ')}
              <div className="hint">
                Told when the request is completed, declined, expires or is canceled.
              </div>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
