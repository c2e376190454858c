import { Button, CopyButton, Modal } from './ui.tsx';

/** A secret shown once (a new API key, a webhook signing secret), with a copy button. */
export function SecretDialog({
  secret,
  title,
  description,
  testId,
  copyLabel,
  doneLabel,
  onClose,
}: {
  secret: string | null;
  title: string;
  description: string;
  testId: string;
  copyLabel: string;
  doneLabel: string;
  onClose: () => void;
}) {
  return (
    <Modal
      open={secret !== null}
      onOpenChange={(o) => !o && onClose()}
      title={title}
      description={description}
    >
      <div className="secret">
        <code data-testid={testId}>{secret}</code>
        {secret ? <CopyButton value={secret} label={copyLabel} /> : null}
      </div>
      <div className="form-actions">
        <Button variant="primary" onClick={onClose}>
          {doneLabel}
        </Button>
      </div>
    </Modal>
  );
}
