// VS Code entry point: a thin layer over src/launch.ts (which holds all launch
// logic and does not depend on the editor) and vscode-languageclient.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  ErrorHandler,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import {
  classifyEarlyExit,
  COMMAND_SETTING,
  formatCommand,
  formatStartFailure,
  preflight,
  resolveServerCommand,
  ServerCommand,
  ServerStartError,
  spawnServer,
  SpawnedServer,
} from './launch';
import { entryAt, FramePreview, FrameSource, FrameTreeProvider, revealFrame } from './frames';
import { buildServerSettings, editableScope, ServerSettings, VariableContext } from './settings';

const CLIENT_ID = 'sdformat';
const CLIENT_NAME = 'SDFormat Language Server';
const OPEN_SETTINGS = 'Open Settings';
const SHOW_OUTPUT = 'Show Output';
/**
 * How long a started server may take to answer `initialize`. The carried server
 * answers in about a second; a command that is no language server (a shell, a
 * REPL) would otherwise leave the extension starting forever, and every restart
 * queued behind it. SDFORMAT_LSP_START_TIMEOUT_MS overrides it (tests, very slow machines).
 */
function startTimeoutMs(): number {
  const fromEnv = Number(process.env.SDFORMAT_LSP_START_TIMEOUT_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 30000;
}

/**
 * A LanguageClient that stays quiet while starting: vscode-languageclient
 * reports a failed start with its own notifications ("couldn't create
 * connection to server", "connection closed"...). During startup we show a
 * single, explanatory message ourselves instead; the client's messages still
 * go to the output channel.
 */
class SdformatLanguageClient extends LanguageClient {
  quiet = true;

  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    super.error(message, data, this.quiet ? false : showNotification);
  }

  // After a failed `initialize`, vscode-languageclient calls `void this.stop()`,
  // which rejects (unhandled) because the client never got to Running. There is
  // nothing to stop yet: our start() caller cleans up the process.
  override stop(timeout?: number): Promise<void> {
    if (this.quiet && this.state === State.Starting) {
      return Promise.resolve();
    }
    return super.stop(timeout);
  }
}

/** Minimal view of the ms-python.python extension API that we use. */
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { id: string; path: string };
    resolveEnvironment(
      environment: { id: string; path: string } | string,
    ): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  settings?: {
    getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
    onDidChangeExecutionDetails?: vscode.Event<unknown>;
  };
}

let output: vscode.OutputChannel;
let client: SdformatLanguageClient | undefined;
let server: SpawnedServer | undefined;
let starting: Promise<void> | undefined;
let pythonApi: PythonExtensionApi | undefined;
/** The command the running server was started with (to restart only when it really changes). */
let launched: string | undefined;
let frames: FrameSource | undefined;
/** bundled/run.py when this build of the extension carries the server (scripts/bundle_server.py). */
let bundledLauncher: string | undefined;
/** Where the carried server's bytecode is cached (the extension's global storage; see SpawnOptions.pycachePrefix). */
let pycacheDir: string | undefined;

/**
 * A window whose extension host runs elsewhere (Remote-SSH, WSL, Dev Containers, Codespaces) or
 * in a browser (code-server, vscode.dev): there `machine` and `machine-overridable` settings are
 * read from the remote machine's settings, and the User tab shows them greyed out.
 */
export function isRemoteWindow(): boolean {
  const web = vscode.UIKind?.Web;
  return Boolean(vscode.env.remoteName) || (web !== undefined && vscode.env.uiKind === web);
}

/** Opens the settings editor where `sdformat.server.command` can be edited in this window (see editableScope). */
async function openCommandSettings(): Promise<void> {
  const scope = editableScope(vscode.workspace.getConfiguration().inspect(COMMAND_SETTING), {
    remote: isRemoteWindow(),
    trusted: vscode.workspace.isTrusted !== false,
  });
  const command =
    scope === 'workspace' ? 'workbench.action.openWorkspaceSettings' : scope === 'remote' ? 'workbench.action.openRemoteSettings' : undefined;
  if (command) {
    try {
      await vscode.commands.executeCommand(command, { query: COMMAND_SETTING });
      return;
    } catch (error) {
      output.appendLine(`Could not open the ${scope} settings: ${String(error)}`);
    }
  }
  await vscode.commands.executeCommand('workbench.action.openSettings', COMMAND_SETTING);
}

function variableContext(): VariableContext {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const byName: Record<string, string> = {};
  for (const f of folders) {
    if (f.uri.scheme === 'file') {
      byName[f.name] = f.uri.fsPath;
    }
  }
  const first = folders.find((f) => f.uri.scheme === 'file');
  return { workspaceFolder: first?.uri.fsPath, workspaceFolders: byName };
}

function serverSettings(): ServerSettings {
  const section = vscode.workspace.getConfiguration('sdformat');
  return buildServerSettings(
    {
      resourcePaths: section.get('resourcePaths'),
      debounceMs: section.get('debounceMs'),
      maxDocumentSizeMB: section.get('maxDocumentSizeMB'),
      inlayHints: { enabled: section.get('inlayHints.enabled'), angles: section.get('inlayHints.angles') },
    },
    variableContext(),
  );
}

async function getPythonApi(): Promise<PythonExtensionApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
  if (!ext) {
    return undefined;
  }
  try {
    return ext.isActive ? ext.exports : await ext.activate();
  } catch (error) {
    output.appendLine(`Could not activate the Python extension: ${String(error)}`);
    return undefined;
  }
}

/** The interpreter chosen in the Python extension, as a command (array of words). */
async function pythonCommandFromExtension(): Promise<string[] | undefined> {
  const api = pythonApi;
  if (!api) {
    return undefined;
  }
  const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
  try {
    if (api.environments) {
      const active = api.environments.getActiveEnvironmentPath(resource);
      const resolved = await api.environments.resolveEnvironment(active);
      const exe = resolved?.executable.uri?.fsPath;
      if (exe) {
        return [exe];
      }
    }
    const details = api.settings?.getExecutionDetails(resource);
    if (details?.execCommand && details.execCommand.length > 0) {
      return details.execCommand;
    }
  } catch (error) {
    output.appendLine(`Could not get the interpreter from the Python extension: ${String(error)}`);
  }
  return undefined;
}

async function showStartFailure(error: unknown): Promise<void> {
  const message = formatStartFailure(error, { bundled: bundledLauncher !== undefined });
  output.appendLine(`[error] ${message}`);
  if (error instanceof ServerStartError && error.details.stderr) {
    output.appendLine('--- server stderr (tail) ---');
    output.appendLine(error.details.stderr.trimEnd());
  }
  const choice = await vscode.window.showErrorMessage(message, OPEN_SETTINGS, SHOW_OUTPUT);
  if (choice === OPEN_SETTINGS) {
    await openCommandSettings();
  } else if (choice === SHOW_OUTPUT) {
    output.show(true);
  }
}

/** Why a start failed: our own classification when we have one. */
async function explainFailure(error: unknown, sc: ServerCommand): Promise<unknown> {
  if (error instanceof ServerStartError) {
    return error;
  }
  const spawned = server;
  if (spawned) {
    // The process died before answering `initialize`, or is about to.
    const exit = await Promise.race([
      spawned.exited,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 3000)),
    ]);
    if (exit) {
      return classifyEarlyExit(sc, exit, spawned.stderrTail());
    }
    void spawned.terminate(0);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ServerStartError('initialize-failed', `initialization failed: ${message}`, sc, { cause: error });
}

async function startClient(): Promise<void> {
  const config = vscode.workspace.getConfiguration('sdformat');
  pythonApi = pythonApi ?? (await getPythonApi());

  let sc: ServerCommand;
  try {
    sc = resolveServerCommand({
      setting: config.get('server.command'),
      pythonCommand: await pythonCommandFromExtension(),
      variables: variableContext(),
      bundledLauncher,
    });
  } catch (error) {
    await showStartFailure(error);
    return;
  }
  const cwd = variableContext().workspaceFolder;
  launched = JSON.stringify([sc.command, ...sc.args]);
  output.appendLine(`Starting: ${formatCommand(sc)} (${sc.source})`);

  const problem = await preflight(sc, { cwd });
  if (problem) {
    await showStartFailure(problem);
    return;
  }

  const serverOptions: ServerOptions = async () => {
    server = await spawnServer(sc, { cwd, pycachePrefix: sc.source === 'bundled' ? pycacheDir : undefined });
    const spawned = server;
    void spawned.exited.then(({ code, signal }) => {
      output.appendLine(`Server process exited (${code !== null ? `code ${code}` : `signal ${signal}`}).`);
    });
    return spawned.process;
  };

  let defaultHandler: ErrorHandler | undefined;
  let mine: SdformatLanguageClient | undefined;
  const ownClient = () => mine ?? client;
  const errorHandler: ErrorHandler = {
    // Each client's handler asks its own client (not the current one): a client
    // given up while starting must stay quiet when its process ends later.
    error: (error, message, count) => {
      if (ownClient()?.quiet) {
        return { action: ErrorAction.Shutdown, handled: true };
      }
      return defaultHandler!.error(error, message, count);
    },
    closed: () => {
      if (ownClient()?.quiet) {
        // Answer after a macrotask: vscode-languageclient's start() must reject
        // (it reports failed initialization as a rejection) before the client
        // processes the close; answering at once makes start() resolve instead.
        return new Promise((resolve) => setTimeout(() => resolve({ action: CloseAction.DoNotRestart, handled: true }), 0));
      }
      return defaultHandler!.closed();
    },
  };

  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'sdformat' },
      { scheme: 'untitled', language: 'sdformat' },
      { scheme: 'file', language: 'urdf' },
      { scheme: 'untitled', language: 'urdf' },
      { scheme: 'file', language: 'xacro' },
      { scheme: 'untitled', language: 'xacro' },
    ],
    outputChannel: output,
    initializationOptions: serverSettings(),
    errorHandler,
    initializationFailedHandler: () => false,
    middleware: {
      workspace: {
        // Answer workspace/configuration for the `sdformat` section with the
        // same processed settings that initializationOptions carries.
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) {
            return result;
          }
          return params.items.map((item, i) => (item.section === 'sdformat' ? serverSettings() : result[i]));
        },
      },
    },
  };

  const newClient = new SdformatLanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  defaultHandler = newClient.createDefaultErrorHandler(4);
  mine = newClient;
  client = newClient;
  try {
    const timeout = startTimeoutMs();
    let timer: NodeJS.Timeout | undefined;
    const answered = newClient.start();
    answered.catch(() => undefined); // after a timeout its rejection is ours to ignore
    await Promise.race([
      answered,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(
            new ServerStartError(
              'initialize-failed',
              `${formatCommand(sc)} did not answer the language server's "initialize" within ${Math.round(timeout / 1000)} s: it is not the SDFormat language server, or it hangs`,
              sc,
            ),
          );
        }, timeout);
      }),
    ]).finally(() => clearTimeout(timer));
    if (newClient.state !== State.Running) {
      throw new Error('the server stopped during initialization');
    }
    newClient.quiet = false;
    output.appendLine('Server started.');
    frames?.schedule(0);
  } catch (error) {
    const explained = await explainFailure(error, sc);
    if (client === newClient) {
      client = undefined;
    }
    if (newClient.state === State.Running) {
      await newClient.dispose().catch(() => undefined);
    }
    // A client still starting (a command that never answered) is not disposed:
    // that would write shutdown to a pipe about to close. Ending the process
    // ends it, and, quiet while starting, it does not restart or report.
    void server?.terminate(0);
    await showStartFailure(explained);
  }
}

async function stopClient(): Promise<void> {
  const current = client;
  const spawned = server;
  client = undefined;
  server = undefined;
  if (current) {
    try {
      if (current.state === State.Running) {
        await current.dispose(3000); // shutdown + exit
      }
    } catch (error) {
      output.appendLine(`Stopping the server failed: ${String(error)}`);
    }
  }
  if (spawned) {
    // After shutdown/exit the server ends by itself; kill it if it does not.
    await spawned.terminate(2000);
  }
}

/** Restarts the server; concurrent requests are serialized. */
function restart(): Promise<void> {
  const previous = starting ?? Promise.resolve();
  starting = previous
    .catch(() => undefined)
    .then(async () => {
      await stopClient();
      await startClient();
    });
  return starting;
}

/** The active SDFormat document as URDF (the server converts it), opened in a new editor. */
async function convertToUrdf(): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  const current = client;
  if (!document || !current || current.state !== State.Running) {
    void vscode.window.showErrorMessage('Convert to URDF: open an SDFormat file while the language server runs.');
    return;
  }
  let result: { text: string | null; warnings: string[]; errors: string[] };
  try {
    result = (await current.sendRequest('workspace/executeCommand', {
      command: 'sdformat.server.convertToUrdf',
      arguments: [document.uri.toString()],
    })) as typeof result;
  } catch (err) {
    // The server refused the request (a document it does not have open, a URDF...): say why, once.
    void vscode.window.showErrorMessage(`Cannot convert to URDF: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  if (!result.text) {
    void vscode.window.showErrorMessage(`Cannot convert to URDF: ${result.errors.join('; ')}`);
    return;
  }
  const urdf = await vscode.workspace.openTextDocument({ language: 'urdf', content: result.text });
  await vscode.window.showTextDocument(urdf, { preview: false });
  if (result.warnings.length) {
    for (const warning of result.warnings) {
      output.appendLine(`Convert to URDF: ${warning}`);
    }
    void vscode.window.showWarningMessage(`Converted to URDF with ${result.warnings.length} warning(s); see the output.`);
  }
}

/**
 * After a change of `sdformat.server.*`: restart when the command to run changed (or the server is
 * not running). In a remote window a change in the User settings does not apply to this
 * machine-overridable setting (VS Code reads it from the remote machine): say so instead of
 * restarting the same command.
 */
async function restartIfCommandChanged(): Promise<void> {
  let next: string | undefined;
  try {
    const sc = resolveServerCommand({
      setting: vscode.workspace.getConfiguration('sdformat').get('server.command'),
      pythonCommand: await pythonCommandFromExtension(),
      variables: variableContext(),
      bundledLauncher,
    });
    next = JSON.stringify([sc.command, ...sc.args]);
  } catch {
    next = undefined; // a bad value: the restart reports it
  }
  if (next !== undefined && next === launched && client && client.state === State.Running) {
    output.appendLine(`${COMMAND_SETTING} changed, but the command that applies in this window did not: the server keeps running.`);
    if (isRemoteWindow()) {
      const choice = await vscode.window.showInformationMessage(
        `${COMMAND_SETTING} is read from this remote machine's settings in a remote window; a value in your User settings does not apply here. Set it in the Remote settings.`,
        OPEN_SETTINGS,
      );
      if (choice === OPEN_SETTINGS) {
        await openCommandSettings();
      }
    }
    return;
  }
  await restart();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel(CLIENT_NAME);
  const launcher = context.extensionPath ? path.join(context.extensionPath, 'bundled', 'run.py') : undefined;
  bundledLauncher = launcher && fs.existsSync(launcher) ? launcher : undefined;
  const storage = context.globalStorageUri?.scheme === 'file' ? context.globalStorageUri.fsPath : undefined;
  pycacheDir = bundledLauncher && storage ? path.join(storage, 'pycache') : undefined;
  context.subscriptions.push(output);

  let tree: vscode.TreeView<unknown> | undefined;
  let preview: FramePreview | undefined;
  frames = new FrameSource(
    () => (client && client.state === State.Running ? client : undefined),
    () => Boolean(tree?.visible) || Boolean(preview?.isOpen),
  );
  preview = new FramePreview(context.extensionUri, frames, (line) => output.appendLine(line));
  const treeData = new FrameTreeProvider(frames);
  tree = vscode.window.createTreeView('sdformat.frames', { treeDataProvider: treeData, showCollapseAll: true });
  const frameSource = frames;
  const frameTree = tree;
  // the tree says why it is empty: the document's first error, or what it lacks
  context.subscriptions.push(frames.onDidChange((result) => {
    frameTree.message = result && !result.root && result.problem ? `No frames: ${result.problem}` : undefined;
  }));
  // the cursor in the editor highlights its element in the 3D view and selects it in the tree
  context.subscriptions.push(vscode.window.onDidChangeTextEditorSelection((e) => {
    const entry = entryAt(frameSource.current, e.textEditor.document.uri.toString(), e.selections[0].active);
    if (!entry) return;
    preview?.highlight(entry.id);
    const node = treeData.node(entry.id);
    if (node && frameTree.visible) void frameTree.reveal(node, { select: true, focus: false });
  }));
  const shown = preview;
  context.subscriptions.push(
    frames,
    preview,
    tree,
    tree.onDidChangeVisibility((e) => {
      if (e.visible) frames?.schedule(0);
    }),
    vscode.commands.registerCommand('sdformat.revealFrame', (entry) => revealFrame(entry)),
    vscode.commands.registerCommand('sdformat.showPreview', () => {
      void shown.show();
      frames?.schedule(0);
    }),
    vscode.commands.registerCommand('sdformat.refreshFrames', () => frames?.refresh()),
    vscode.commands.registerCommand('sdformat.previewStatus', () => shown.lastRendered),
    vscode.commands.registerCommand('sdformat.restartServer', () => restart()),
    vscode.commands.registerCommand('sdformat.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('sdformat.convertToUrdf', () => convertToUrdf()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('sdformat.server')) {
        void restartIfCommandChanged();
      } else if (event.affectsConfiguration('sdformat') && !event.affectsConfiguration('sdformat.trace')) {
        // Every server setting (resourcePaths, debounceMs, inlayHints...) applies without a restart.
        const current = client;
        if (current && current.state === State.Running) {
          void current.sendNotification(DidChangeConfigurationNotification.type, {
            settings: { sdformat: serverSettings() },
          });
        }
      }
    }),
  );

  // Activation does not wait for the server: VS Code finishes starting the window (and the other
  // extensions) while Python starts; documents opened meanwhile are sent once the client runs.
  starting = startClient().then(() => followPythonInterpreter(context));
  return;
}

/** Resolves once the server started at activation (or the latest restart) is running or has failed. */
export function started(): Promise<void> {
  return (starting ?? Promise.resolve()).catch(() => undefined);
}

/** Follow interpreter changes in the Python extension when we use its interpreter. */
function followPythonInterpreter(context: vscode.ExtensionContext): void {
  const onPythonChange =
    pythonApi?.environments?.onDidChangeActiveEnvironmentPath ?? pythonApi?.settings?.onDidChangeExecutionDetails;
  if (onPythonChange) {
    context.subscriptions.push(
      onPythonChange(() => {
        const setting = vscode.workspace.getConfiguration('sdformat').get<unknown>('server.command');
        const usesSetting = (typeof setting === 'string' && setting.trim() !== '') || (Array.isArray(setting) && setting.length > 0);
        if (!usesSetting) {
          output.appendLine('Python interpreter changed; restarting the server.');
          void restart();
        }
      }),
    );
  }
}

export async function deactivate(): Promise<void> {
  // Let a start in progress finish (bounded), so that the server gets a clean shutdown.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([starting?.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, 5000)))]);
  clearTimeout(timer);
  await stopClient();
}
