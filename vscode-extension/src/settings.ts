// Pure helpers for the `sdformat.*` settings. This module must not import
// `vscode` (or vscode-languageclient) so that it can be unit-tested under plain
// node; src/extension.ts feeds it the values read from the VS Code API.

import * as os from 'node:os';
import * as path from 'node:path';

/** Context for `${...}` variable substitution in settings. */
export interface VariableContext {
  /** File-system path of the first workspace folder, if any. */
  workspaceFolder?: string;
  /** Workspace folders by name, for `${workspaceFolder:name}`. */
  workspaceFolders?: Record<string, string>;
  /** Home directory (defaults to os.homedir()). */
  home?: string;
  /** Environment used for `${env:NAME}` (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Expands `${workspaceFolder}`, `${workspaceFolder:name}`, `${workspaceFolderBasename}`,
 * `${userHome}`, `${env:NAME}` and a leading `~`. Unknown variables are left untouched.
 */
export function expandVariables(value: string, ctx: VariableContext = {}): string {
  const home = ctx.home ?? os.homedir();
  const env = ctx.env ?? process.env;
  let result = value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name === 'workspaceFolder' || name === 'workspaceRoot') {
      return ctx.workspaceFolder ?? whole;
    }
    if (name === 'workspaceFolderBasename') {
      return ctx.workspaceFolder ? path.basename(ctx.workspaceFolder) : whole;
    }
    if (name.startsWith('workspaceFolder:')) {
      const folder = ctx.workspaceFolders?.[name.slice('workspaceFolder:'.length)];
      return folder ?? whole;
    }
    if (name === 'userHome') {
      return home;
    }
    if (name.startsWith('env:')) {
      return env[name.slice(4)] ?? '';
    }
    return whole;
  });
  if (result === '~') {
    result = home;
  } else if (result.startsWith('~/') || result.startsWith('~\\')) {
    result = path.join(home, result.slice(2));
  }
  return result;
}

/** What the server receives as `initializationOptions` and as the `sdformat` configuration section. */
export interface ServerSettings {
  resourcePaths: string[];
  debounceMs?: number;
  maxDocumentSizeMB?: number;
  inlayHints?: { enabled?: boolean; angles?: 'degrees' | 'radians' };
  [key: string]: unknown;
}

/**
 * Builds the settings object sent to the server from the raw `sdformat`
 * configuration section (as returned by `workspace.getConfiguration('sdformat')`,
 * or any plain object). `resourcePaths` entries get variables expanded and
 * relative entries are resolved against the first workspace folder; entries that
 * are not non-empty strings are dropped. `debounceMs` is passed on when it is a
 * finite number >= 0, `maxDocumentSizeMB` likewise (0: no limit); `inlayHints` keeps a boolean `enabled` and an `angles` of
 * `degrees` or `radians`. Other keys of the section (e.g. `server`, `trace`) are not
 * sent: they only concern the client.
 */
export function buildServerSettings(raw: unknown, ctx: VariableContext = {}): ServerSettings {
  const section = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const paths = Array.isArray(section.resourcePaths) ? section.resourcePaths : [];
  const resourcePaths: string[] = [];
  for (const entry of paths) {
    if (typeof entry !== 'string' || entry.trim() === '') {
      continue;
    }
    let p = expandVariables(entry.trim(), ctx);
    if (!path.isAbsolute(p) && ctx.workspaceFolder) {
      p = path.resolve(ctx.workspaceFolder, p);
    }
    if (!resourcePaths.includes(p)) {
      resourcePaths.push(p);
    }
  }
  const settings: ServerSettings = { resourcePaths };
  const debounce = section.debounceMs;
  if (typeof debounce === 'number' && Number.isFinite(debounce) && debounce >= 0) {
    settings.debounceMs = Math.round(debounce);
  }
  const maxMB = section.maxDocumentSizeMB;
  if (typeof maxMB === 'number' && Number.isFinite(maxMB) && maxMB >= 0) {
    settings.maxDocumentSizeMB = maxMB;
  }
  const hints = section.inlayHints;
  if (hints && typeof hints === 'object') {
    const { enabled, angles } = hints as Record<string, unknown>;
    const out: NonNullable<ServerSettings['inlayHints']> = {};
    if (typeof enabled === 'boolean') out.enabled = enabled;
    if (angles === 'degrees' || angles === 'radians') out.angles = angles;
    if (Object.keys(out).length > 0) settings.inlayHints = out;
  }
  return settings;
}

/** The settings editor tab where a setting can be edited: the one whose value applies in this window. */
export type SettingsScope = 'user' | 'remote' | 'workspace';

/** What `WorkspaceConfiguration.inspect` returns (the part used here). */
export interface InspectedSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

function isSet(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== null;
}

/**
 * Where "Open Settings" should take the user for a `machine-overridable` setting such as
 * `sdformat.server.command`: the workspace (or folder) settings when the value that applies comes
 * from there (a trusted workspace: an untrusted one's value is ignored), else the Remote settings
 * in a remote window (VS Code reads machine settings from the remote machine and greys out the User
 * tab there), else the User settings.
 */
export function editableScope(inspected: InspectedSetting | undefined, window: { remote: boolean; trusted: boolean }): SettingsScope {
  if (window.trusted && inspected && (isSet(inspected.workspaceFolderValue) || isSet(inspected.workspaceValue))) {
    return 'workspace';
  }
  return window.remote ? 'remote' : 'user';
}
