export { MCP_PATH, type McpOptions, mcpEndpoint } from './plugin.ts';
export { type McpTool, mcpTools } from './tools.ts';
