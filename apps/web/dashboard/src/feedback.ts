import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useToast } from './ui.tsx';

/**
 * What a change made on a page does with its answer: `toast` says what happened, `refresh` fetches
 * the queries it touched again, and `onError` (the mutation's) shows why it failed.
 */
export function useChangeFeedback(...queryKeys: QueryKey[]) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () => Promise.all(queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  const onError = (e: { message: string }) => toast(e.message, 'bad');
  return { toast, refresh, onError };
}
