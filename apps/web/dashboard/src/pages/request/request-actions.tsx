import { useMutation } from '@tanstack/react-query';
import { useChangeFeedback } from '../../feedback.ts';
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
        r.reminded_signer_ids.length
          ? `Reminded ${r.reminded_signer_ids.length} signer(s)`
          : 'Nobody needed a reminder',
      ),
    ),
  );
  const cancel = useMutation(
    trpc.signatureRequests.cancel.mutationOptions(
      announce('Request canceled: the signing links no longer work'),
    ),
  );
  return (
    <>
      <Button onClick={() => remind.mutate({ id })} busy={remind.isPending}>
        Remind signers
      </Button>
      <Confirm
        trigger={<Button variant="danger">Cancel request</Button>}
        title="Cancel this request?"
        description="Signers can no longer open or sign it. This cannot be undone."
        confirmLabel="Cancel request"
        onConfirm={() => cancel.mutate({ id })}
      />
    </>
  );
}
