// Tokenizes fixtures with the TextMate engine VS Code uses (vscode-textmate +
// vscode-oniguruma) and checks the scopes of interesting tokens.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';

const ROOT = path.resolve(__dirname, '..', '..');
const GRAMMAR = path.join(ROOT, 'syntaxes', 'sdformat.tmLanguage.json');

interface Token {
  text: string;
  scopes: string[];
}

let grammar: textmate.IGrammar;

function tokenize(text: string): Token[][] {
  let state = textmate.INITIAL;
  return text.split(/\r?\n/).map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
  });
}

/** Scopes of the first token whose text is `text` (after `after` on that line, if given). */
function scopesOf(lines: Token[][], text: string, after?: string): string[] {
  for (const tokens of lines) {
    const lineText = tokens.map((t) => t.text).join('');
    if (after !== undefined && !lineText.includes(after)) {
      continue;
    }
    const start = after !== undefined ? lineText.indexOf(after) + after.length : 0;
    let offset = 0;
    for (const t of tokens) {
      if (offset >= start && t.text === text) {
        return t.scopes;
      }
      offset += t.text.length;
    }
  }
  assert.fail(`no token ${JSON.stringify(text)}${after ? ` after ${JSON.stringify(after)}` : ''}`);
}

function hasScope(scopes: string[], prefix: string): boolean {
  return scopes.some((s) => s.split(' ').some((part) => part === prefix || part.startsWith(prefix + '.')));
}

function assertScope(lines: Token[][], text: string, prefix: string, after?: string): void {
  const scopes = scopesOf(lines, text, after);
  assert.ok(hasScope(scopes, prefix), `${JSON.stringify(text)} has scopes ${scopes.join(', ')}, expected ${prefix}`);
}

describe('TextMate grammar', () => {
  before(async () => {
    const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new textmate.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
        createOnigString: (s: string) => new oniguruma.OnigString(s),
      }),
      loadGrammar: async (scopeName: string) => {
        if (scopeName !== 'text.xml.sdformat') {
          return null;
        }
        return textmate.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR);
      },
    });
    const loaded = await registry.loadGrammar('text.xml.sdformat');
    assert.ok(loaded, 'grammar loads');
    grammar = loaded;
  });

  it('scopes tags, attributes, strings, comments, CDATA, entities and processing instructions', () => {
    const lines = tokenize(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'highlight.world'), 'utf8'));
    assertScope(lines, 'xml', 'meta.tag.preprocessor.xml');
    assertScope(lines, 'xml', 'entity.name.tag.xml');
    assertScope(lines, 'encoding', 'entity.other.attribute-name.localname.xml');
    assertScope(lines, ' A comment ', 'comment.block.xml');
    assertScope(lines, '<!--', 'punctuation.definition.comment.xml');
    assertScope(lines, 'sdf', 'entity.name.tag.localname.xml');
    assertScope(lines, 'version', 'entity.other.attribute-name.localname.xml', '<sdf');
    assertScope(lines, '1.10', 'string.quoted.double.xml');
    assertScope(lines, '<', 'punctuation.definition.tag.xml', '  ');
    assertScope(lines, 'world', 'entity.name.tag.localname.xml', '</');
    assertScope(lines, ' if (a < b) {} ', 'string.unquoted.cdata.xml');
    assertScope(lines, '<![CDATA[', 'punctuation.definition.string.begin.xml');
    assertScope(lines, '&', 'constant.character.entity.xml', 'Tom ');
    assertScope(lines, 'foo::Bar', 'string.quoted.double.xml');
  });

  it('highlights frame attributes and their references', () => {
    const lines = tokenize(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'highlight.world'), 'utf8'));
    for (const attr of ['relative_to', 'attached_to', 'expressed_in', 'canonical_link']) {
      assertScope(lines, attr, 'entity.other.attribute-name.frame.sdformat');
      assertScope(lines, attr, 'entity.other.attribute-name.localname.xml');
    }
    assertScope(lines, 'base', 'variable.other.frame-reference.sdformat', "attached_to='");
    assertScope(lines, 'base', 'string.quoted.single.xml', "attached_to='");
    assertScope(lines, 'base', 'variable.other.frame-reference.sdformat', 'canonical_link="');
    assertScope(lines, '__model__', 'variable.language.frame.sdformat');
    assertScope(lines, 'world', 'variable.language.frame.sdformat', 'expressed_in="');
    // The tag keeps going after a frame attribute.
    assertScope(lines, '>', 'punctuation.definition.tag.xml', '"__model__"');
    // Ordinary attribute values are plain strings.
    const nameScopes = scopesOf(lines, 'box', 'name="');
    assert.ok(!hasScope(nameScopes, 'variable.other.frame-reference'), nameScopes.join(', '));
  });

  it('highlights numbers and booleans in element text only', () => {
    const lines = tokenize(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'highlight.world'), 'utf8'));
    assertScope(lines, '-9.8', 'constant.numeric.sdformat');
    assertScope(lines, '0.5', 'constant.numeric.sdformat');
    assertScope(lines, 'true', 'constant.language.boolean.sdformat');
    const uri = lines.flat().filter((t) => t.text.includes('a1') || t.text.includes('sensor_2'));
    assert.ok(uri.length > 0);
    for (const t of uri) {
      assert.ok(!hasScope(t.scopes, 'constant.numeric'), `${t.text}: ${t.scopes.join(', ')}`);
    }
    const version = scopesOf(lines, '1.10');
    assert.ok(!hasScope(version, 'constant.numeric'), version.join(', '));
  });

  it('handles tags split across lines and a bad ampersand', () => {
    const lines = tokenize('<link\n    name="a"\n    foo="x & y">\n  1 2\n</link>');
    assertScope(lines, 'name', 'entity.other.attribute-name.localname.xml');
    assertScope(lines, 'foo', 'entity.other.attribute-name.localname.xml');
    assertScope(lines, '&', 'invalid.illegal.bad-ampersand.xml');
    assertScope(lines, '>', 'punctuation.definition.tag.xml', '"x & y"');
    assertScope(lines, '1', 'constant.numeric.sdformat');
  });
});
