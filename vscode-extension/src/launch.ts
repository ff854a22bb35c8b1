// Launch logic for the sdformat-lsp language server.
//
// This module must NOT import `vscode` or `vscode-languageclient`: it is used by
// the extension (src/extension.ts) and, unchanged, by the node:test suite that
// starts the real Python server (test/server.test.ts). Everything the editor
// knows (settings, the Python extension's interpreter, workspace folders) is
// passed in as plain values.

import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expandVariables, VariableContext } from './settings';

/** Python module that implements the server (`python -m sdformat_lsp`). */
export const SERVER_MODULE = 'sdformat_lsp';
/** The installer of the repository (scripts/install.py): makes `.venv` in a checkout, with the server. */
export const INSTALL_SCRIPT = 'scripts/install.py';
/** The setting that overrides the command. */
export const COMMAND_SETTING = 'sdformat.server.command';

export type CommandSetting = string | readonly string[] | null | undefined;

/** Where the server command came from. */
export type CommandSource = 'setting' | 'python-extension' | 'default' | 'bundled';

export interface ServerCommand {
  command: string;
  args: string[];
  source: CommandSource;
}

export interface ResolveOptions {
  /** Value of `sdformat.server.command` (string, array of strings, or empty). */
  setting?: unknown;
  /**
   * The launcher of the server carried by the extension (bundled/run.py), when this build has
   * one: it runs with the interpreter below (any python3 >= 3.10), nothing to install.
   */
  bundledLauncher?: string;
  /** Interpreter command from the Python extension, e.g. ['/venv/bin/python'] or ['conda', 'run', '-n', 'x', 'python']. */
  pythonCommand?: readonly string[] | undefined;
  /** Defaults to `python3` (`python` on Windows). */
  defaultPython?: string;
  /** Variables for `${workspaceFolder}`, `~` etc. in the setting. */
  variables?: VariableContext;
  platform?: NodeJS.Platform;
}

export type StartProblemKind =
  | 'invalid-setting'
  | 'command-not-found'
  | 'module-missing'
  | 'dependency-missing'
  | 'spawn-failed'
  | 'exited'
  | 'initialize-failed';

/** A failure to start the server, with enough context for one clear message. */
export class ServerStartError extends Error {
  constructor(
    readonly kind: StartProblemKind,
    message: string,
    readonly serverCommand?: ServerCommand,
    readonly details: {
      /** Missing executable or module name. */
      missing?: string;
      exitCode?: number | null;
      signal?: NodeJS.Signals | null;
      stderr?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message);
    this.name = 'ServerStartError';
  }
}

export function defaultPythonFor(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'python' : 'python3';
}

/**
 * Splits a command line into words. Double and single quotes group words;
 * a backslash escapes the next character inside double quotes and outside
 * quotes, except on Windows where backslashes are path separators.
 */
export function splitCommandLine(line: string, platform: NodeJS.Platform = process.platform): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  const escapes = platform !== 'win32';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) {
        quote = undefined;
      } else if (ch === '\\' && quote === '"' && escapes && i + 1 < line.length) {
        current += line[++i];
      } else {
        current += ch;
      }
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) {
        words.push(current);
        current = '';
        inWord = false;
      }
    } else if (ch === '\\' && escapes && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) {
    throw new Error(`unterminated ${quote} quote in command: ${line}`);
  }
  if (inWord) {
    words.push(current);
  }
  return words;
}

/**
 * Resolves the command that starts the server:
 * 1. `sdformat.server.command` when set (a string is split like a shell would,
 *    an array is taken word by word);
 * 2. otherwise the server the extension carries (`<python> bundled/run.py`) when
 *    this build has one;
 * 3. otherwise `<python> -m sdformat_lsp`.
 * `<python>` is the interpreter of the Python extension when known, else `python3`.
 * Throws ServerStartError('invalid-setting') for a malformed setting.
 */
export function resolveServerCommand(options: ResolveOptions = {}): ServerCommand {
  const platform = options.platform ?? process.platform;
  const expand = (s: string) => expandVariables(s, options.variables);
  const setting = options.setting;
  let words: string[] | undefined;
  if (typeof setting === 'string') {
    if (setting.trim() !== '') {
      try {
        words = splitCommandLine(setting.trim(), platform);
      } catch (error) {
        throw new ServerStartError('invalid-setting', `${COMMAND_SETTING}: ${(error as Error).message}`);
      }
    }
  } else if (Array.isArray(setting)) {
    if (!setting.every((w) => typeof w === 'string')) {
      throw new ServerStartError('invalid-setting', `${COMMAND_SETTING} must be a string or an array of strings.`);
    }
    if (setting.length > 0) {
      words = setting as string[];
    }
  } else if (setting !== undefined && setting !== null) {
    throw new ServerStartError('invalid-setting', `${COMMAND_SETTING} must be a string or an array of strings.`);
  }
  if (words) {
    words = words.map(expand);
    if (words[0] === '') {
      throw new ServerStartError('invalid-setting', `${COMMAND_SETTING}: the command (first word) is empty.`);
    }
    return { command: words[0], args: words.slice(1), source: 'setting' };
  }
  const fromExtension = options.pythonCommand?.filter((w) => typeof w === 'string' && w !== '');
  const python =
    fromExtension && fromExtension.length > 0 ? [...fromExtension] : [options.defaultPython ?? defaultPythonFor(platform)];
  if (options.bundledLauncher) {
    return { command: python[0], args: [...python.slice(1), options.bundledLauncher], source: 'bundled' };
  }
  return {
    command: python[0],
    args: [...python.slice(1), '-m', SERVER_MODULE],
    source: fromExtension && fromExtension.length > 0 ? 'python-extension' : 'default',
  };
}

/** The command as one line, for messages and logs. */
export function formatCommand(sc: Pick<ServerCommand, 'command' | 'args'>): string {
  return [sc.command, ...sc.args].map((w) => (w === '' || /[\s"']/.test(w) ? JSON.stringify(w) : w)).join(' ');
}

/**
 * When the command runs a Python module (`... -m module`), returns the
 * interpreter part and the module name, else undefined.
 */
export function pythonModuleInvocation(sc: ServerCommand): { python: string[]; module: string } | undefined {
  const i = sc.args.indexOf('-m');
  if (i < 0 || i + 1 >= sc.args.length) {
    return undefined;
  }
  return { python: [sc.command, ...sc.args.slice(0, i)], module: sc.args[i + 1] };
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) {
      return false;
    }
    if (platform === 'win32') {
      return true;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Looks a command up like spawn would (PATH, and PATHEXT on Windows).
 * Returns the full path, or undefined when it cannot be found.
 */
export function findExecutable(
  command: string,
  options: { env?: NodeJS.ProcessEnv; cwd?: string; platform?: NodeJS.Platform } = {},
): string | undefined {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const pathMod = platform === 'win32' ? path.win32 : path.posix;
  const exts =
    platform === 'win32'
      ? ['', ...(env.PATHEXT ?? env.Pathext ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)]
      : [''];
  const candidates = (base: string) => exts.map((ext) => base + ext);
  const hasSeparator = command.includes('/') || (platform === 'win32' && command.includes('\\'));
  if (hasSeparator || pathMod.isAbsolute(command)) {
    const base = pathMod.resolve(options.cwd ?? process.cwd(), command);
    return candidates(base).find((c) => isExecutableFile(c, platform));
  }
  const pathVar = env.PATH ?? env.Path ?? '';
  for (const dir of pathVar.split(pathMod.delimiter)) {
    if (!dir) {
      continue;
    }
    const found = candidates(pathMod.join(dir, command)).find((c) => isExecutableFile(c, platform));
    if (found) {
      return found;
    }
  }
  return undefined;
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /**
   * Where Python keeps the compiled bytecode of the server (PYTHONPYCACHEPREFIX): for the server
   * the extension carries, a folder of the extension's storage, always writable. Beside the
   * sources, in the extension's folder, it may not be (an extensions folder shared read-only), and
   * then every start compiles the libraries again (lsprotocol's types alone take a second).
   */
  pycachePrefix?: string;
}

function spawnOptions(options: SpawnOptions): cp.SpawnOptions {
  const base = options.env ?? process.env;
  const prefix = options.pycachePrefix && !base.PYTHONPYCACHEPREFIX ? { PYTHONPYCACHEPREFIX: options.pycachePrefix } : {};
  return {
    cwd: options.cwd,
    env: { ...base, ...prefix, PYTHONUNBUFFERED: '1' },
    stdio: 'pipe',
    windowsHide: true,
  };
}

/** On Windows, .bat/.cmd files can only be started through the shell. */
function needsShell(command: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' && /\.(bat|cmd)$/i.test(command);
}

function quoteForCmd(word: string): string {
  return /[\s"&|<>^]/.test(word) ? `"${word.replace(/"/g, '""')}"` : word;
}

function spawnCommand(command: string, args: string[], options: SpawnOptions): cp.ChildProcess {
  const platform = options.platform ?? process.platform;
  const opts = spawnOptions(options);
  if (needsShell(command, platform)) {
    return cp.spawn([command, ...args].map(quoteForCmd).join(' '), { ...opts, shell: true });
  }
  return cp.spawn(command, args, opts);
}

function notFound(sc: ServerCommand, cause?: unknown): ServerStartError {
  return new ServerStartError('command-not-found', `Command not found: ${sc.command}`, sc, {
    missing: sc.command,
    cause,
  });
}

/**
 * Cheap checks before starting the server, so that the usual installation
 * problems are reported once and clearly instead of as a failed connection:
 * - the executable exists (PATH lookup, no process started);
 * - for `<python> -m module`, the module can be found by that interpreter
 *   (`importlib.util.find_spec`, which does not import the module).
 * Returns the problem, or undefined when nothing is known to be wrong
 * (including when a check could not decide, e.g. on timeout).
 */
export async function preflight(
  sc: ServerCommand,
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<ServerStartError | undefined> {
  if (!findExecutable(sc.command, { env: options.env, cwd: options.cwd, platform: options.platform })) {
    return notFound(sc);
  }
  const invocation = pythonModuleInvocation(sc);
  if (!invocation) {
    return undefined;
  }
  const code =
    'import importlib.util, sys\n' +
    'try:\n' +
    '    found = importlib.util.find_spec(sys.argv[1]) is not None\n' +
    'except Exception:\n' +
    '    found = False\n' +
    'sys.exit(0 if found else 3)\n';
  const [python, ...pythonArgs] = invocation.python;
  const result = await new Promise<{ code: number | null; error?: NodeJS.ErrnoException; stderr: string }>((resolve) => {
    let stderr = '';
    let child: cp.ChildProcess;
    try {
      child = spawnCommand(python, [...pythonArgs, '-c', code, invocation.module], options);
    } catch (error) {
      resolve({ code: null, error: error as NodeJS.ErrnoException, stderr });
      return;
    }
    const timer = setTimeout(() => {
      child.kill();
      resolve({ code: null, stderr });
    }, options.timeoutMs ?? 15000);
    child.stdin?.end();
    child.stdout?.resume();
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, error, stderr });
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ code: exitCode, stderr });
    });
  });
  if (result.error) {
    return result.error.code === 'ENOENT' ? notFound(sc, result.error) : undefined;
  }
  if (result.code === 3) {
    return new ServerStartError(
      'module-missing',
      `Python module '${invocation.module}' is not installed for ${formatCommand({ command: python, args: pythonArgs })}`,
      sc,
      { missing: invocation.module, exitCode: 3 },
    );
  }
  return undefined;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A started server process. */
export interface SpawnedServer {
  readonly process: cp.ChildProcess;
  readonly serverCommand: ServerCommand;
  /** Resolves when the process has exited. */
  readonly exited: Promise<ServerExit>;
  /** Whether the process has exited. */
  hasExited(): boolean;
  /** The last few KB of what the server wrote to stderr. */
  stderrTail(): string;
  /** Kills the process if it is still running after `graceMs`. */
  terminate(graceMs?: number): Promise<ServerExit>;
}

/**
 * Starts the server with stdio pipes (the LSP speaks over stdin/stdout; stderr
 * is the server's log). Resolves once the process has been spawned; rejects
 * with ServerStartError('command-not-found' | 'spawn-failed') when it could
 * not be spawned at all.
 */
export function spawnServer(sc: ServerCommand, options: SpawnOptions = {}): Promise<SpawnedServer> {
  return new Promise((resolve, reject) => {
    let child: cp.ChildProcess;
    try {
      child = spawnCommand(sc.command, sc.args, options);
    } catch (error) {
      reject(new ServerStartError('spawn-failed', `Could not start ${formatCommand(sc)}: ${(error as Error).message}`, sc, { cause: error }));
      return;
    }
    let stderr = '';
    let exit: ServerExit | undefined;
    child.stderr?.on('data', (d: Buffer | string) => {
      stderr = (stderr + d.toString()).slice(-8000);
    });
    const exited = new Promise<ServerExit>((resolveExit) => {
      child.on('exit', (code, signal) => {
        exit = { code, signal };
        resolveExit(exit);
      });
    });
    let spawned = false;
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (spawned) {
        return; // e.g. a failed kill(); the exit event tells the rest
      }
      exit = exit ?? { code: null, signal: null };
      reject(
        error.code === 'ENOENT'
          ? notFound(sc, error)
          : new ServerStartError('spawn-failed', `Could not start ${formatCommand(sc)}: ${error.message}`, sc, { cause: error }),
      );
    });
    child.on('spawn', () => {
      spawned = true;
      dropWritesAfterExit(child, () => exit !== undefined);
      resolve({
        process: child,
        serverCommand: sc,
        exited,
        hasExited: () => exit !== undefined,
        stderrTail: () => stderr,
        terminate: async (graceMs = 2000) => {
          if (exit) {
            return exit;
          }
          const timer = setTimeout(() => child.kill(), graceMs);
          const result = await exited;
          clearTimeout(timer);
          return result;
        },
      });
    });
  });
}

/**
 * Makes a write to the server's stdin that fails because the server has exited
 * succeed silently. vscode-jsonrpc's WriteableStreamMessageWriter returns the
 * promise of a message body's write outside its try, so EPIPE from a server
 * that died during startup would reject where nothing handles it; the exit is
 * what we report (classifyEarlyExit), and a message to a dead process cannot
 * arrive anyway. Other write errors still reach the writer.
 */
export function dropWritesAfterExit(child: cp.ChildProcess, hasExited: () => boolean): void {
  const stdin = child.stdin;
  if (!stdin) {
    return;
  }
  const gone = (error: NodeJS.ErrnoException | null | undefined) =>
    !!error && (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' || hasExited());
  const write = stdin.write.bind(stdin) as (...args: unknown[]) => boolean;
  stdin.write = ((...args: unknown[]) => {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const callback = last as (error?: Error | null) => void;
      args[args.length - 1] = (error?: NodeJS.ErrnoException | null) => callback(gone(error) ? null : error);
    }
    return write(...args);
  }) as typeof stdin.write;
}

/**
 * Explains why a server that was spawned exited before it finished
 * initializing, from its exit status and stderr.
 */
export function classifyEarlyExit(sc: ServerCommand, exit: ServerExit, stderr: string): ServerStartError {
  const invocation = pythonModuleInvocation(sc);
  const details = { exitCode: exit.code, signal: exit.signal, stderr };
  const status = exit.code !== null ? `exit code ${exit.code}` : `signal ${exit.signal ?? 'unknown'}`;
  const missing = /No module named ['"]?([\w.]+)['"]?/.exec(stderr);
  if (missing) {
    const name = missing[1];
    const target = invocation?.module;
    if (target !== undefined && (target === name || target.startsWith(name + '.'))) {
      return new ServerStartError('module-missing', `Python module '${target}' is not installed (${status})`, sc, {
        ...details,
        missing: target,
      });
    }
    // A dependency (pygls, lxml...) or a part of the server itself is missing: a broken install.
    return new ServerStartError('dependency-missing', `The server is missing the Python module '${name}' (${status})`, sc, {
      ...details,
      missing: name,
    });
  }
  return new ServerStartError('exited', `The server exited during startup (${status})`, sc, details);
}

function describeSource(sc: ServerCommand): string {
  switch (sc.source) {
    case 'setting':
      return ` (from the setting ${COMMAND_SETTING})`;
    case 'python-extension':
      return ' (the interpreter selected in the Python extension)';
    case 'bundled':
      return ' (to run the server carried by the extension)';
    default:
      return '';
  }
}

/** The last non-empty line of a process's stderr, shortened for a notification. */
function lastLine(stderr: string | undefined): string | undefined {
  const line = stderr
    ?.split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .pop();
  return line && line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** Context for the advice of a start failure. */
export interface FailureContext {
  /** Whether this build of the extension carries the server (bundled/run.py). */
  bundled?: boolean;
  platform?: NodeJS.Platform;
}

/**
 * How to run a server installed from a checkout: the installer of the repository makes a virtual
 * environment there (the package is on no index, and Debian's and Ubuntu's python3 refuse pip outside
 * one), and the setting points at its `sdformat-lsp`.
 */
export function checkoutAdvice(platform: NodeJS.Platform = process.platform): string {
  const python = platform === 'win32' ? 'python' : 'python3';
  return `to use a server from a checkout of the sdformat-lsp repository, run "${python} ${INSTALL_SCRIPT}" in it (it makes .venv with the server) and set "${COMMAND_SETTING}" to ${JSON.stringify([checkoutServer(platform)])}`;
}

/** The server that scripts/install.py puts into a checkout's virtual environment. */
function checkoutServer(platform: NodeJS.Platform): string {
  return platform === 'win32' ? '<checkout>\\.venv\\Scripts\\sdformat-lsp.exe' : '<checkout>/.venv/bin/sdformat-lsp';
}

/** What to do when no Python 3.10 or newer runs the server the extension carries. */
function pythonAdvice(platform: NodeJS.Platform): string {
  const install =
    platform === 'win32'
      ? 'install Python 3.10 or newer from python.org'
      : platform === 'darwin'
        ? 'install Python 3.10 or newer (python.org or Homebrew)'
        : 'install Python 3.10 or newer with your package manager (for example "sudo apt install python3")';
  return `${install}, or select such an interpreter in the Python extension`;
}

/**
 * One user-facing message for a start failure: what went wrong and what to do now. The
 * extension normally carries its server (nothing to install but a Python 3.10+); otherwise the
 * server comes from the setting, or from a checkout through the repository's installer.
 */
export function formatStartFailure(error: unknown, context: FailureContext = {}): string {
  const platform = context.platform ?? process.platform;
  const prefix = 'SDFormat language server could not be started: ';
  const sc = error instanceof ServerStartError ? error.serverCommand : undefined;
  const bundled = context.bundled ?? sc?.source === 'bundled';
  const carried = 'The extension carries its own server; it needs only Python 3.10 or newer';
  const fromSetting = sc?.source === 'setting';
  // What a user can do when the command that failed is not the carried server.
  const fixSetting = fromSetting
    ? bundled
      ? `Fix "${COMMAND_SETTING}", or clear it to use the server the extension carries; ${checkoutAdvice(platform)}.`
      : `Fix "${COMMAND_SETTING}"; ${checkoutAdvice(platform)}.`
    : `This build of the extension does not carry the server: install the .vsix for your platform (it does), or ${checkoutAdvice(platform)}.`;
  if (!(error instanceof ServerStartError)) {
    const message = error instanceof Error ? error.message : String(error);
    return `${prefix}${message}. See the output for details. ${fixSetting}`;
  }
  const invocation = sc && pythonModuleInvocation(sc);
  const python = invocation ? formatCommand({ command: invocation.python[0], args: invocation.python.slice(1) }) : undefined;
  switch (error.kind) {
    case 'invalid-setting':
      return `${prefix}${error.message} Write "${COMMAND_SETTING}" as an array of words, for example ${JSON.stringify([checkoutServer(platform)])}${bundled ? ', or clear it to use the server the extension carries' : ''}.`;
    case 'command-not-found':
      if (sc?.source === 'bundled') {
        return `${prefix}"${error.details.missing}" was not found${describeSource(sc)}. ${carried}: ${pythonAdvice(platform)}. Or set "${COMMAND_SETTING}" to a server you installed yourself.`;
      }
      if (fromSetting) {
        return `${prefix}the command "${error.details.missing}"${describeSource(sc)} was not found. ${fixSetting}`;
      }
      return `${prefix}"${error.details.missing}" was not found${sc ? describeSource(sc) : ''}: ${pythonAdvice(platform)}. ${fixSetting}`;
    case 'module-missing':
      return `${prefix}the Python module "${error.details.missing ?? SERVER_MODULE}" is not installed in ${python ?? 'the Python environment'}${sc ? describeSource(sc) : ''}. ${fixSetting}`;
    case 'dependency-missing':
      if (sc?.source === 'bundled') {
        return `${prefix}the server the extension carries is missing the Python module "${error.details.missing}": this .vsix is damaged or built for another platform. Reinstall the extension (the .vsix for your platform), or ${checkoutAdvice(platform)}.`;
      }
      return `${prefix}the Python module "${error.details.missing}" that the server needs is missing${python ? ` in ${python}` : ''}${sc ? describeSource(sc) : ''}: that environment is incomplete (in a checkout, "${INSTALL_SCRIPT}" updates .venv). ${fixSetting}`;
    case 'spawn-failed':
      return `${prefix}${error.message}. ${sc?.source === 'bundled' ? `${carried}: ${pythonAdvice(platform)}.` : fixSetting}`;
    case 'initialize-failed':
      return `${prefix}${error.message}. See the output for details. ${sc?.source === 'bundled' ? `Or ${checkoutAdvice(platform)}.` : fixSetting}`;
    case 'exited':
    default: {
      const status =
        error.details.exitCode !== undefined && error.details.exitCode !== null
          ? `exit code ${error.details.exitCode}`
          : `signal ${error.details.signal ?? 'unknown'}`;
      const last = lastLine(error.details.stderr);
      const head = `${prefix}it exited during startup (${status})${last ? `: ${last}` : ''}. See the output for details.`;
      if (sc?.source === 'bundled') {
        return `${head} Or ${checkoutAdvice(platform)}.`;
      }
      return `${head} ${fixSetting}`;
    }
  }
}
