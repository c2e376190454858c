import { useState } from 'react';
import { background } from '../../background.ts';
import { msg } from '../../messages/index.ts';
import { errorMessage, trpcClient } from '../../trpc.ts';
import { Button, useToast } from '../../ui.tsx';

/**
 * Preview: saves what is pending, then opens the signing page as the chosen role would see the
 * template (templates.preview: a 15-minute link; no request is made, no credit used).
 */
export function Preview({
  templateId,
  roles,
  flush,
}: {
  templateId: number;
  roles: string[];
  flush: () => Promise<boolean>;
}) {
  const [role, setRole] = useState(roles[0] ?? '');
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const chosen = roles.includes(role) ? role : (roles[0] ?? '');
  const open = async () => {
    // Opened before the awaits, so the browser does not treat it as an unasked popup.
    const tab = window.open('about:blank', '_blank');
    setBusy(true);
    try {
      if (!(await flush())) throw new Error(msg('editor.preview.save_first'));
      const { url } = await trpcClient.templates.preview.mutate({ id: templateId, role: chosen });
      if (tab) tab.location.href = url;
      else window.location.href = url;
    } catch (err) {
      tab?.close();
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };
  return (
    <fieldset className="ed-bar-group ed-preview">
      <legend className="sr-only">{msg('editor.preview')}</legend>
      <select
        aria-label={msg('editor.preview.role')}
        value={chosen}
        onChange={(e) => setRole(e.target.value)}
      >
        {roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <Button small busy={busy} onClick={() => background(open())}>
        {msg('editor.preview')}
      </Button>
    </fieldset>
  );
}
