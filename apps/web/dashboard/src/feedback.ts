import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useToast } from './ui.tsx';

/**
 * What a change made on a page does with its answer: `toast` says what happened, `refresh` fetches
 * the queries it touched again, and `onError` (the mutation's) shows why it failed. `announce` is
 * all three for the common case: `mutationOptions(announce('Member removed'))`.
 */
export function useChangeFeedback(...queryKeys: QueryKey[]) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () => Promise.all(queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  const onError = (e: { message: string }) => toast(e.message, 'bad');
  const announce = <T = unknown>(message: string | ((answer: T) => string)) => ({
    onSuccess: async (answer: T) => {
      toast(typeof message === 'string' ? message : message(answer));
      await refresh();
    },
    onError,
  });
  return { toast, refresh, onError, announce };
}
