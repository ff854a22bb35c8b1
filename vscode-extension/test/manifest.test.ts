// Checks package.json contributions against the files and code they refer to.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

describe('package.json', () => {
  it('contributes the sdformat language for .sdf and .world', () => {
    const lang = pkg.contributes.languages.find((l: { id: string }) => l.id === 'sdformat');
    assert.ok(lang);
    assert.deepEqual(lang.extensions.sort(), ['.sdf', '.world']);
    assert.ok(lang.aliases.includes('SDFormat'));
    const config = JSON.parse(fs.readFileSync(path.join(ROOT, lang.configuration), 'utf8'));
    assert.deepEqual(config.comments.blockComment, ['<!--', '-->']);
    for (const rule of config.onEnterRules) {
      new RegExp(rule.beforeText);
      if (rule.afterText) new RegExp(rule.afterText);
    }
    new RegExp(config.indentationRules.increaseIndentPattern);
    new RegExp(config.indentationRules.decreaseIndentPattern);
    new RegExp(config.wordPattern);
  });

  it('attaches to .urdf files (not .xacro), highlighted as XML', () => {
    const urdf = pkg.contributes.languages.find((l: { id: string }) => l.id === 'urdf');
    assert.deepEqual(urdf.extensions, ['.urdf']);
    assert.ok(pkg.activationEvents.includes('onLanguage:urdf'));
    const grammar = pkg.contributes.grammars.find((g: { language: string }) => g.language === 'urdf');
    const raw = JSON.parse(fs.readFileSync(path.join(ROOT, grammar.path), 'utf8'));
    assert.equal(raw.scopeName, grammar.scopeName);
    const extension = fs.readFileSync(path.join(ROOT, 'src', 'extension.ts'), 'utf8');
    assert.ok(extension.includes("language: 'urdf'"));
  });

  it('declares a xacro language for .xacro files (.urdf.xacro too), served by the same client', () => {
    const xacro = pkg.contributes.languages.find((l: { id: string }) => l.id === 'xacro');
    assert.deepEqual(xacro.extensions, ['.xacro']);
    assert.ok(pkg.activationEvents.includes('onLanguage:xacro'));
    const grammar = pkg.contributes.grammars.find((g: { language: string }) => g.language === 'xacro');
    const raw = JSON.parse(fs.readFileSync(path.join(ROOT, grammar.path), 'utf8'));
    assert.equal(raw.scopeName, grammar.scopeName);
    const extension = fs.readFileSync(path.join(ROOT, 'src', 'extension.ts'), 'utf8');
    assert.ok(extension.includes("{ scheme: 'file', language: 'xacro' }"));
    const frames = fs.readFileSync(path.join(ROOT, 'src', 'frames.ts'), 'utf8');
    assert.match(frames, /FRAME_LANGUAGES = new Set\(\[[^\]]*'xacro'/);
  });

  it('contributes a grammar file that exists', () => {
    const grammar = pkg.contributes.grammars[0];
    assert.equal(grammar.language, 'sdformat');
    const raw = JSON.parse(fs.readFileSync(path.join(ROOT, grammar.path), 'utf8'));
    assert.equal(raw.scopeName, grammar.scopeName);
  });

  it('declares the settings and commands the extension uses', () => {
    const props = pkg.contributes.configuration.properties;
    for (const key of ['sdformat.server.command', 'sdformat.resourcePaths', 'sdformat.debounceMs', 'sdformat.trace.server']) {
      assert.ok(props[key], key);
    }
    assert.deepEqual(props['sdformat.trace.server'].enum, ['off', 'messages', 'verbose']);
    assert.deepEqual(props['sdformat.server.command'].type, ['array', 'string']);
    const commands = pkg.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(commands, [
      'sdformat.convertToUrdf',
      'sdformat.refreshFrames',
      'sdformat.restartServer',
      'sdformat.revealFrame',
      'sdformat.showOutput',
      'sdformat.showPreview',
    ]);
    for (const key of ['sdformat.inlayHints.enabled', 'sdformat.inlayHints.angles']) {
      assert.ok(props[key], key);
    }
    assert.ok(pkg.contributes.views.explorer.some((v: { id: string }) => v.id === 'sdformat.frames'));
    const extension = fs.readFileSync(path.join(ROOT, 'src', 'extension.ts'), 'utf8');
    for (const command of commands) {
      assert.ok(extension.includes(`'${command}'`), `${command} registered in extension.ts`);
    }
  });

  // Every setting the server reads (server/sdformat_lsp/server/settings.py) is declared here and
  // forwarded by the extension, so that none is silently out of reach of VS Code users.
  it('declares and forwards every setting the server reads', () => {
    const serverSettings = fs.readFileSync(path.join(ROOT, '..', 'server', 'sdformat_lsp', 'server', 'settings.py'), 'utf8');
    const keys = [...serverSettings.matchAll(/if "(\w+)" in section/g)].map((m) => m[1]);
    assert.ok(keys.includes('maxDocumentSizeMB') && keys.includes('resourcePaths'), keys.join(', '));
    const props = pkg.contributes.configuration.properties;
    const extension = fs.readFileSync(path.join(ROOT, 'src', 'extension.ts'), 'utf8');
    for (const key of keys) {
      const declared = Object.keys(props).filter((p) => p === `sdformat.${key}` || p.startsWith(`sdformat.${key}.`));
      assert.ok(declared.length > 0, `sdformat.${key} declared in package.json`);
      for (const p of declared) {
        assert.ok(extension.includes(`section.get('${p.slice('sdformat.'.length)}')`), `${p} forwarded by serverSettings() in extension.ts`);
      }
    }
    assert.equal(props['sdformat.maxDocumentSizeMB'].minimum, 0);
    assert.equal(props['sdformat.maxDocumentSizeMB'].default, 100);
  });

  it('has what vsce needs to package without prompting', () => {
    assert.ok(pkg.publisher);
    assert.ok(pkg.repository?.url);
    assert.equal(pkg.license, 'MIT');
    assert.ok(fs.existsSync(path.join(ROOT, 'LICENSE')));
    assert.ok(fs.existsSync(path.join(ROOT, 'README.md')));
    assert.equal(pkg.main, './dist/extension.js');
  });

  it('keeps the launch logic free of the vscode API', () => {
    for (const file of ['launch.ts', 'settings.ts', 'frameModel.ts']) {
      const source = fs.readFileSync(path.join(ROOT, 'src', file), 'utf8');
      assert.doesNotMatch(source, /from\s+['"]vscode(-languageclient[^'"]*)?['"]|require\(['"]vscode/, file);
    }
  });
});
