import { EsignForm } from '@esign/embed/react';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

// <EsignForm> in a React app (docs/embed.md). The signer's signing_url would come from your
// server; here it comes from the address (?signing_url=...).
const signingUrl = new URLSearchParams(location.search).get('signing_url') ?? '';

/** What happened, for the page's log and for the browser test that reads `window.events`. */
const events: { type: string; detail: unknown }[] = [];
(window as unknown as { events: typeof events }).events = events;

function App() {
  const [log, setLog] = useState<string[]>([]);
  const record = (type: string) => (detail: unknown) => {
    events.push({ type, detail });
    setLog((lines) => [...lines, `${type} ${JSON.stringify(detail)}`]);
  };
  const [done, setDone] = useState<string | null>(null);
  return (
    <main style={{ font: '16px/1.5 system-ui, sans-serif', maxWidth: '60rem', margin: '0 auto' }}>
      <h1>Sign your agreement</h1>
      {done ? <p role="status">{done}</p> : null}
      <EsignForm
        signingUrl={signingUrl}
        onLoaded={record('loaded')}
        onFieldCompleted={(message) => record('field-completed')(message)}
        onSigned={(message) => {
          record('signed')(message);
          setDone(`Thank you: request ${message.signature_request_id} is signed.`);
        }}
        onDeclined={record('declined')}
        onError={(message) => record('error')(message)}
      />
      <h2>Events</h2>
      <pre style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{log.join('\n')}</pre>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
