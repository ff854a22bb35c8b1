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
  inlayHints?: { enabled?: boolean; angles?: 'degrees' | 'radians' };
  [key: string]: unknown;
}

/**
 * Builds the settings object sent to the server from the raw `sdformat`
 * configuration section (as returned by `workspace.getConfiguration('sdformat')`,
 * or any plain object). `resourcePaths` entries get variables expanded and
 * relative entries are resolved against the first workspace folder; entries that
 * are not non-empty strings are dropped. `debounceMs` is passed on when it is a
 * finite number >= 0; `inlayHints` keeps a boolean `enabled` and an `angles` of
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
