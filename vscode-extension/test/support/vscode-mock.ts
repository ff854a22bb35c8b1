// A small stand-in for the `vscode` module, enough to activate the bundled
// extension (dist/extension.js) and vscode-languageclient under plain node.
// Explicit pieces record what the extension does (messages, output, commands);
// everything else is a permissive no-op "magic" object.

import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

type Listener<T> = (e: T) => unknown;

/** A callable, constructible object whose every property is again such an object. */
function magic(name = 'magic'): any {
  const fn = function () {
    return magic(`${name}()`);
  };
  return new Proxy(fn, {
    get(_target, prop) {
      if (prop === 'then') return undefined; // not a thenable
      if (prop === Symbol.iterator) return function* () {};
      if (prop === Symbol.toPrimitive) return () => `[${name}]`;
      if (prop === 'dispose') return () => undefined;
      if (prop === 'length') return 0;
      return magic(`${name}.${String(prop)}`);
    },
    apply() {
      return magic(`${name}()`);
    },
    construct() {
      return magic(`new ${name}`);
    },
  });
}

function withFallback<T extends object>(name: string, explicit: T): T & Record<string, any> {
  return new Proxy(explicit, {
    get(target, prop, receiver) {
      if (prop in target) return Reflect.get(target, prop, receiver);
      if (prop === 'then') return undefined;
      return magic(`${name}.${String(prop)}`);
    },
  }) as T & Record<string, any>;
}

export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  static from(...items: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: Array<Listener<T>> = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(e: T): void {
    this.listeners.forEach((l) => l(e));
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
  ) {}
  static file(p: string): Uri {
    return new Uri('file', path.resolve(p));
  }
  static parse(s: string): Uri {
    return s.startsWith('file:') ? new Uri('file', new URL(s).pathname) : new Uri(s.split(':')[0], s);
  }
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return this.scheme === 'file' ? pathToFileURL(this.fsPath).href : this.fsPath;
  }
  toJSON(): unknown {
    return { scheme: this.scheme, path: this.fsPath };
  }
}

export interface ShownMessage {
  kind: 'error' | 'warning' | 'info';
  message: string;
  items: unknown[];
}

/** Creates a fresh mock; `settings` are flat dotted keys, e.g. {'sdformat.server.command': [...]}. */
export function createVscodeMock(
  settings: Record<string, unknown>,
  options: {
    workspaceFolder?: string;
    extensions?: Record<string, unknown>;
    remoteName?: string;
    /** Values of the workspace settings (.vscode/settings.json): they win over `settings` in a trusted workspace. */
    workspaceSettings?: Record<string, unknown>;
    trusted?: boolean;
  } = {},
) {
  const workspaceSettings = options.workspaceSettings ?? {};
  const trusted = options.trusted ?? true;
  const messages: ShownMessage[] = [];
  const output: string[] = [];
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const executed: Array<{ command: string; args: unknown[] }> = [];
  const configListeners = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
  let answer: (message: ShownMessage) => string | undefined = () => undefined;

  const show = (kind: ShownMessage['kind']) => (message: string, ...items: unknown[]) => {
    const m = { kind, message, items };
    messages.push(m);
    return Promise.resolve(answer(m));
  };

  const getConfiguration = (section?: string) => {
    const prefix = section ? `${section}.` : '';
    const get = (key: string, defaultValue?: unknown) => {
      const full = prefix + key;
      if (trusted && full in workspaceSettings) return workspaceSettings[full];
      if (full in settings) return settings[full];
      // A whole section as an object.
      const nested: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(settings)) {
        if (k.startsWith(full + '.')) nested[k.slice(full.length + 1)] = v;
      }
      return Object.keys(nested).length > 0 ? nested : defaultValue;
    };
    return withFallback('configuration', {
      get,
      has: (key: string) => get(key) !== undefined,
      inspect: (key: string) => ({ key: prefix + key, globalValue: settings[prefix + key], workspaceValue: workspaceSettings[prefix + key] }),
      update: () => Promise.resolve(),
    });
  };

  const folder = options.workspaceFolder
    ? { uri: Uri.file(options.workspaceFolder), name: path.basename(options.workspaceFolder), index: 0 }
    : undefined;

  const outputChannel = withFallback('outputChannel', {
    name: 'output',
    append: (s: string) => output.push(s),
    appendLine: (s: string) => output.push(s + '\n'),
    show: () => undefined,
    clear: () => undefined,
    dispose: () => undefined,
  });

  const vscode = withFallback('vscode', {
    version: '1.90.0',
    Disposable,
    EventEmitter,
    Uri,
    CancellationError: class CancellationError extends Error {},
    UIKind: { Desktop: 1, Web: 2 },
    env: withFallback('env', {
      language: 'en',
      appName: 'mock',
      machineId: 'x',
      sessionId: 'y',
      remoteName: options.remoteName,
      uiKind: 1,
    }),
    window: withFallback('window', {
      showErrorMessage: show('error'),
      showWarningMessage: show('warning'),
      showInformationMessage: show('info'),
      createOutputChannel: () => outputChannel,
      activeTextEditor: undefined,
      visibleTextEditors: [],
      onDidChangeActiveTextEditor: () => new Disposable(),
      onDidChangeVisibleTextEditors: () => new Disposable(),
      tabGroups: withFallback('tabGroups', { all: [], onDidChangeTabs: () => new Disposable() }),
    }),
    workspace: withFallback('workspace', {
      workspaceFolders: folder ? [folder] : undefined,
      isTrusted: trusted,
      textDocuments: [],
      getConfiguration,
      onDidChangeConfiguration: configListeners.event,
      onDidOpenTextDocument: () => new Disposable(),
      onDidCloseTextDocument: () => new Disposable(),
      onDidChangeTextDocument: () => new Disposable(),
      onDidSaveTextDocument: () => new Disposable(),
      onWillSaveTextDocument: () => new Disposable(),
      onDidChangeWorkspaceFolders: () => new Disposable(),
      onDidCreateFiles: () => new Disposable(),
      onDidRenameFiles: () => new Disposable(),
      onDidDeleteFiles: () => new Disposable(),
      onWillCreateFiles: () => new Disposable(),
      onWillRenameFiles: () => new Disposable(),
      onWillDeleteFiles: () => new Disposable(),
      onDidOpenNotebookDocument: () => new Disposable(),
      onDidCloseNotebookDocument: () => new Disposable(),
      onDidChangeNotebookDocument: () => new Disposable(),
      onDidSaveNotebookDocument: () => new Disposable(),
      notebookDocuments: [],
      createFileSystemWatcher: () => magic('watcher'),
    }),
    languages: withFallback('languages', {
      createDiagnosticCollection: () => magic('diagnostics'),
      match: () => 0,
    }),
    extensions: withFallback('extensions', {
      getExtension: (id: string) => options.extensions?.[id],
      all: [],
    }),
    commands: withFallback('commands', {
      registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
        commands.set(id, fn);
        return new Disposable(() => commands.delete(id));
      },
      executeCommand: async (command: string, ...args: unknown[]) => {
        executed.push({ command, args });
        return commands.get(command)?.(...args);
      },
    }),
  });

  return {
    vscode,
    messages,
    output,
    commands,
    executed,
    settings,
    /** Decide which button the "user" clicks on a message. */
    onMessage(fn: (message: ShownMessage) => string | undefined) {
      answer = fn;
    },
    /** Changes settings and fires onDidChangeConfiguration. */
    changeSettings(changes: Record<string, unknown>) {
      Object.assign(settings, changes);
      const keys = Object.keys(changes);
      configListeners.fire({
        affectsConfiguration: (section: string) => keys.some((k) => k === section || k.startsWith(section + '.')),
      });
    },
    context: { subscriptions: [] as Array<{ dispose(): unknown }> },
  };
}
