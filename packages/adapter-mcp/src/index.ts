export { createPanyaMcpServer, PROMPT_NAMES, SERVER_NAME, SERVER_VERSION, TOOL_NAMES, type PanyaMcpServerOptions, type ToolName } from './server.js';
export { mcpHttpHandler, type McpHttpHandler, type McpHttpOptions, type McpHttpRequest } from './http.js';
export { runStdioServer, type RunningStdioServer, type StdioServerOptions } from './stdio.js';
export { toolError, type ToolErrorMeta } from './errors.js';
export { NO_OAUTH, bearerChallenge, noAuthorizationServer, protectedResourceMetadata, resourceMetadataUrl } from './oauth.js';
