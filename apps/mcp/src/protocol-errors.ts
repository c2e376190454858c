import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error whose message is sent as written. The SDK's McpError prefixes its message with
 * "MCP error -32602: ", and the SDK sends `error.message`, so a client read "MCP error -32602:"
 * twice over once it added its own (issue 48 item 4). The SDK answers with any thrown error's
 * numeric `code` and `message`.
 */
export class ProtocolError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
    this.name = 'ProtocolError';
  }
}

function kind(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Why a tools/call request's params are not what MCP says (`arguments`, when sent, is an object;
 * `name` is a string), or null. The SDK's own schema check answers these with -32603 and a raw
 * validation dump; MCP says invalid params are -32602.
 */
function callParamsProblem(message: JSONRPCMessage): string | null {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return null;
  const params = (message as { params?: unknown }).params;
  if (!params || typeof params !== 'object' || Array.isArray(params))
    return `Invalid params: tools/call needs params, an object with the tool's name (got ${kind(params)})`;
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') return `Invalid params: the tool's name must be a string (got ${kind(name)})`;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args)))
    return `Invalid params: arguments must be an object of the tool's arguments (got ${kind(args)})`;
  return null;
}

/**
 * Answers tools/call requests with malformed params with -32602 before the SDK's server sees them;
 * every other message goes on as before. Call after `server.connect(transport)`.
 */
export function refuseMalformedCalls(
  transport: StreamableHTTPServerTransport,
  onSendFailure: (err: unknown) => void,
): void {
  const onmessage = transport.onmessage;
  if (!onmessage) return;
  transport.onmessage = (message, extra) => {
    const problem = callParamsProblem(message);
    if (!problem || !('id' in message)) {
      onmessage(message, extra);
      return;
    }
    const answer: JSONRPCMessage = {
      jsonrpc: '2.0',
      id: message.id,
      error: { code: ErrorCode.InvalidParams, message: problem },
    };
    // Sending fails only when the client has gone: nothing is left to answer, the failure is logged.
    transport.send(answer).catch(onSendFailure);
  };
}
