/**
 * How each MCP client is told about the server: the snippet to paste, per client, as each one
 * documents it. Pure; the CLI prints these.
 */

interface ClientConfig {
  /** Client name(s) the snippet is for. */
  client: string;
  /** Where the snippet goes. */
  file: string;
  /** The snippet, ready to paste (JSON is pretty-printed). */
  text: string;
}

interface ClientConfigOptions {
  /** The server requires a bearer token: add an Authorization header with a placeholder, never the token itself. */
  auth?: boolean;
}

/** Placeholder for the token in snippets: printed configs end up in terminals and screenshots. */
export const TOKEN_PLACEHOLDER = '<SVC_DOCS_AUTH_TOKEN>';

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** `url` is the MCP endpoint as startHttpServer reports it, e.g. http://127.0.0.1:8080/docs. */
export function clientConfigs(url: string, options: ClientConfigOptions = {}): ClientConfig[] {
  const name = 'svc-docs';
  const authorization = `Bearer ${TOKEN_PLACEHOLDER}`;
  const headers = options.auth ? { headers: { Authorization: authorization } } : {};
  return [
    {
      client: 'Claude Code, Cursor (and other clients reading an mcpServers map with type http)',
      file: '.mcp.json (Claude Code, project) or ~/.cursor/mcp.json / .cursor/mcp.json (Cursor)',
      text: json({ mcpServers: { [name]: { url, type: 'http', ...headers } } }),
    },
    {
      client: 'Claude Code (command line)',
      file: 'shell',
      text: `claude mcp add --transport http ${name} ${url}${options.auth ? ` --header "Authorization: ${authorization}"` : ''}`,
    },
    {
      client: 'VS Code (GitHub Copilot agent mode)',
      file: '.vscode/mcp.json',
      text: json({ servers: { [name]: { type: 'http', url, ...headers } } }),
    },
    {
      client: 'Windsurf',
      file: '~/.codeium/windsurf/mcp_config.json',
      text: json({ mcpServers: { [name]: { serverUrl: url, ...headers } } }),
    },
    {
      client: 'Antigravity',
      file: 'mcp_config.json (Antigravity: Agent panel › MCP Servers › Manage › View raw config)',
      text: json({ mcpServers: { [name]: { serverUrl: url, ...headers } } }),
    },
    ...opencodeConfigs(name, url, headers),
    {
      client: 'Gemini CLI',
      file: '~/.gemini/settings.json or .gemini/settings.json',
      text: json({ mcpServers: { [name]: { httpUrl: url, ...headers } } }),
    },
    {
      client: 'OpenAI Codex',
      file: '~/.codex/config.toml',
      // Codex reads the token from an environment variable rather than the file.
      text: `[mcp_servers.${name}]\nurl = "${url}"${options.auth ? '\nbearer_token_env_var = "SVC_DOCS_AUTH_TOKEN"' : ''}`,
    },
    claudeDesktopConfig(name, url, options.auth ? authorization : undefined),
  ];
}

/** opencode's entries, for its current (2) and previous (1.x) config shapes. */
function opencodeConfigs(name: string, url: string, headers: { headers?: Record<string, string> }): ClientConfig[] {
  return [
    {
      client: 'opencode',
      file: 'opencode.json (project) or ~/.config/opencode/opencode.json',
      // opencode 2 nests servers under mcp.servers; 1.x put them directly under mcp (same entry).
      text: json({
        $schema: 'https://opencode.ai/config.json',
        mcp: { servers: { [name]: { type: 'remote', url, ...headers } } },
      }),
    },
    {
      client: 'opencode 1.x',
      file: 'opencode.json (project) or ~/.config/opencode/opencode.json',
      text: json({
        $schema: 'https://opencode.ai/config.json',
        mcp: { [name]: { type: 'remote', url, enabled: true, ...headers } },
      }),
    },
  ];
}

/** Claude Desktop speaks stdio only: the mcp-remote bridge, with the header when `authorization` is given. */
function claudeDesktopConfig(name: string, url: string, authorization: string | undefined): ClientConfig {
  return {
    client: 'Claude Desktop (through the mcp-remote stdio bridge)',
    file: 'claude_desktop_config.json',
    text: json({
      mcpServers: {
        [name]: {
          command: 'npx',
          // mcp-remote refuses plain http to hosts other than localhost unless told otherwise.
          args: [
            '-y',
            'mcp-remote',
            url,
            ...(isLoopback(url) ? [] : ['--allow-http']),
            ...(authorization !== undefined ? ['--header', `Authorization: ${authorization}`] : []),
          ],
        },
      },
    }),
  };
}

function isLoopback(text: string): boolean {
  const url = URL.parse(text);
  if (url === null) return false;
  return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}
