import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from './protocol-errors.ts';

/**
 * Usage guides served beside the tools (issue 48 item 4): how to use several tools together, which
 * a tool's own description cannot say. Each is an MCP prompt (`prompts/get` answers it as a user
 * message the assistant can follow) and an MCP resource (`esign://guides/{name}`, plain Markdown).
 * They name tools only: apps/mcp/test/guides.int.test.ts checks every name is a listed tool, so a
 * renamed tool fails a test instead of leaving a guide that points nowhere.
 */
export interface Guide {
  name: string;
  title: string;
  description: string;
  /** A purchase guide (hidden, like the purchase tools, from clients not offered purchases). */
  purchase: boolean;
  /** The tools the guide tells the assistant to call, in the order it does. */
  tools: readonly string[];
  text: string;
}

const SEND_TEMPLATE = `# Send a template for signature

1. Find the template: call \`list_templates\` (filter with \`q\` by name; page with
   \`cursor\` = \`next_cursor\` while \`has_more\`), or \`get_template\` with its \`id\` when you
   know it. \`get_template\` lists the template's roles and its fields (field names are the
   \`prefill\` keys).
2. Send it: call \`send_signature_request\` with \`template_id\` and \`signers\`, one per role in
   template order: \`name\` and \`email\` (or a \`phone\` in international format for SMS),
   optionally \`role\` and \`prefill\`. Signers sign one after another unless \`signing_order\` is
   \`parallel\`.
3. Each signer receives a signing link. A request uses one credit when it is first completed.
4. If the result is an error, read its \`code\`: \`missing_parameter\` and \`invalid_parameter\`
   name the argument to fix; \`insufficient_credits\` means the account needs credits first (the
   guide "buy_credits_when_refused" says how, when it is offered).

Never invent a template id or a signer's address: ask the user.`;

const FOLLOW_REQUEST = `# Follow a signature request

1. Read it: call \`get_signature_request\` with its \`id\` (or find it with
   \`list_signature_requests\`, filtered by \`template_id\`, \`q\` for a signer's name or email, or
   \`status\`: \`sent\`, \`in_progress\`, \`completed\`, \`declined\`, \`canceled\`, \`expired\`, or
   \`open\` for the first two). Each signer has their own progress.
2. Nudge the signers who have not signed: call \`remind_signers\` (at most once per hour per
   request).
3. A signer's address is wrong: call \`update_signer\` with the signer's \`id\` and the new
   \`email\` or \`phone\`, and \`resend: true\` to send the link again.
4. Stop it: call \`cancel_signature_request\` (ask the user first: signing links stop working).
5. Once \`completed\`, the request links the signed documents and the audit trail;
   \`verify_document\` checks a signed PDF someone sends back.

Check no more often than once a minute; the user's own system can receive webhooks instead.`;

const BUY_CREDITS = `# Buy credits when a call is refused

A tool answers \`insufficient_credits\` when the account has no credit left for what you asked.
You can recover without leaving the conversation:

1. Call \`list_credit_packs\` and show the user the packs (credits and price).
2. With the user's choice, call \`buy_credits\` with the pack's id as \`credit_pack_id\`. It
   returns a pending checkout with a \`checkout_url\`.
3. Show the user the \`checkout_url\`: they pay in their browser (you never see card details).
4. Call \`get_checkout\` with the checkout's \`id\` every few seconds until its \`status\` is
   \`completed\` (the credits are on the account) or \`failed\` (tell the user; a new checkout
   can be started).
5. Call the refused tool again with the same arguments.

\`get_account\` shows the account's \`credits\` at any time.`;

export const GUIDES: readonly Guide[] = [
  {
    name: 'send_template',
    title: 'Send a template for signature',
    description: 'How to find a template and send it to its signers',
    purchase: false,
    tools: ['list_templates', 'get_template', 'send_signature_request'],
    text: SEND_TEMPLATE,
  },
  {
    name: 'follow_request',
    title: 'Follow a signature request',
    description: 'How to see where a request stands, remind signers, fix an address or cancel',
    purchase: false,
    tools: [
      'get_signature_request',
      'list_signature_requests',
      'remind_signers',
      'update_signer',
      'cancel_signature_request',
      'verify_document',
    ],
    text: FOLLOW_REQUEST,
  },
  {
    name: 'buy_credits_when_refused',
    title: 'Buy credits when a call is refused',
    description: 'What to do when a tool answers insufficient_credits',
    purchase: true,
    tools: ['list_credit_packs', 'buy_credits', 'get_checkout', 'get_account'],
    text: BUY_CREDITS,
  },
];

const GUIDE_URI_PREFIX = 'esign://guides/';

/** The guides a client is offered: the purchase guide only where purchases are. */
export function guidesFor(purchasesOffered: boolean): Guide[] {
  return GUIDES.filter((g) => purchasesOffered || !g.purchase);
}

export function promptList(guides: readonly Guide[]) {
  return {
    prompts: guides.map((g) => ({ name: g.name, title: g.title, description: g.description })),
  };
}

export function resourceList(guides: readonly Guide[]) {
  return {
    resources: guides.map((g) => ({
      uri: `${GUIDE_URI_PREFIX}${g.name}`,
      name: g.name,
      title: g.title,
      description: g.description,
      mimeType: 'text/markdown',
    })),
  };
}

/** prompts/get: the guide as one user message; an unknown name is -32602 (MCP prompts). */
export function getPrompt(guides: readonly Guide[], name: string) {
  const guide = guides.find((g) => g.name === name);
  if (!guide) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  return {
    description: guide.description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: guide.text } }],
  };
}

/** resources/read: the guide as Markdown; an unknown address is -32002 (MCP resources). */
export function readResource(guides: readonly Guide[], uri: string) {
  const guide = guides.find((g) => `${GUIDE_URI_PREFIX}${g.name}` === uri);
  if (!guide) throw new ProtocolError(-32002, `Resource not found: ${uri}`);
  return { contents: [{ uri, mimeType: 'text/markdown', text: guide.text }] };
}
