/**
 * What a tool call answered: its structured result, or for a failed call (`isError`, no structured
 * content) the `{ error: { code, message } }` JSON of its text.
 */
export function resultData(answer: object): any {
  const result = answer as { isError?: unknown; structuredContent?: unknown; content?: unknown };
  if (!result.isError) return result.structuredContent;
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === 'text' && first.text ? JSON.parse(first.text) : null;
}
