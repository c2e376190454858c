import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { msg } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Button, ErrorNote, Loading, useToast } from '../../ui.tsx';

/** Admins: require two-step sign-in of every member of the account (issue 45 item 2). */
export function TwoStepRule() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const rule = useQuery(trpc.twoStep.accountRule.queryOptions());
  const set = useMutation(
    trpc.twoStep.setAccountRule.mutationOptions({
      onSuccess: async (r) => {
        toast(msg(r.required ? 'team.rule.required' : 'team.rule.optional'));
        // The admin's own session may now have to set up its second step.
        await queryClient.invalidateQueries();
      },
    }),
  );
  return (
    <section className="card" aria-labelledby="two-step-rule">
      <h2 id="two-step-rule">{msg('team.rule.title')}</h2>
      {rule.isPending ? <Loading /> : null}
      <ErrorNote error={rule.error ?? set.error} />
      {rule.data ? (
        <>
          <p className="hint">{msg(rule.data.required ? 'team.rule.on' : 'team.rule.off')}</p>
          <div className="form-actions">
            <Button
              variant={rule.data.required ? 'secondary' : 'primary'}
              busy={set.isPending}
              onClick={() => set.mutate({ required: !rule.data.required })}
            >
              {msg(rule.data.required ? 'team.rule.stop' : 'team.rule.require')}
            </Button>
          </div>
        </>
      ) : null}
    </section>
  );
}
