import { useMutation } from '@tanstack/react-query';
import { useChangeFeedback } from '../../feedback.ts';
import { msg, t } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Button, Confirm } from '../../ui.tsx';

/** Remind the signers who have not finished, or cancel the request; both refresh the page. */
export function RequestActions({ id }: { id: number }) {
  const { announce } = useChangeFeedback(
    trpc.signatureRequests.pathKey(),
    trpc.dashboard.requestTimeline.queryKey({ id }),
  );
  const remind = useMutation(
    trpc.signatureRequests.remind.mutationOptions(
      announce((r: { reminded_signer_ids: number[] }) =>
        t('requests.actions.reminded', { count: r.reminded_signer_ids.length }),
      ),
    ),
  );
  const cancel = useMutation(
    trpc.signatureRequests.cancel.mutationOptions(announce(msg('requests.actions.canceled'))),
  );
  return (
    <>
      <Button onClick={() => remind.mutate({ id })} busy={remind.isPending}>
        {msg('requests.actions.remind')}
      </Button>
      <Confirm
        trigger={<Button variant="danger">{msg('requests.actions.cancel')}</Button>}
        title={msg('requests.actions.cancel_title')}
        description={msg('requests.actions.cancel_text')}
        confirmLabel={msg('requests.actions.cancel_confirm')}
        onConfirm={() => cancel.mutate({ id })}
      />
    </>
  );
}
