'use strict';
// Tests of the language configurations: node --test test/config.test.js
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const configs = new Map(manifest.contributes.languages.map((l) => [l.id, JSON.parse(fs.readFileSync(path.join(root, l.configuration), 'utf8'))]));

test('every language has a configuration', () => {
  assert.deepStrictEqual([...configs.keys()], ['fcstm', 'fbmcq', 'rsc']);
});

test('comment toggling writes only what the language reads as a comment', () => {
  for (const [id, c] of configs) assert.strictEqual(c.comments.lineComment, '//', id);
  // In FCSTM /* */ is a documentation block, allowed only before a
  // declaration; in RSC only // is skipped between statements.
  assert.strictEqual(configs.get('fcstm').comments.blockComment, undefined);
  assert.strictEqual(configs.get('rsc').comments.blockComment, undefined);
  assert.deepStrictEqual(configs.get('fbmcq').comments.blockComment, ['/*', '*/']);
});

test('brackets close and indent', () => {
  for (const [id, c] of configs) {
    const closes = new Map(c.autoClosingPairs.map((p) => [p.open, p.close]));
    for (const [open, close] of c.brackets) assert.strictEqual(closes.get(open), close, `${id} ${open}`);
    const inc = new RegExp(c.indentationRules.increaseIndentPattern);
    const dec = new RegExp(c.indentationRules.decreaseIndentPattern);
    for (const line of ['state Root {', '    enter {', '    A -> B : Go effect {', 'import "u.fcstm" as U {', 'init state("S") havoc {',
      '    Idle -> Run : /Root.Go effect {', 'state R named "a}" { // open', 'if [x / 2 > 1] { # open']) {
      assert.match(line, inc, `${id}: indent after ${line}`);
    }
    for (const line of ['state A { }', 'state A;', '// a { in a comment', '# {', 'state R named "{"', '    }',
      'x = a / b; // {', '    def * -> x_${1};', 'import "u" as U { def {a, b} -> *; }', '/* { */']) {
      assert.doesNotMatch(line, inc, `${id}: no indent after ${line}`);
    }
    assert.match('    }', dec);
    assert.match('}', dec);
    assert.doesNotMatch('    x = 1;', dec);
  }
});

test('a word is a name or a whole number', () => {
  for (const [id, c] of configs) {
    const word = new RegExp(`^(?:${c.wordPattern})$`);
    for (const w of ['sensor_1', '_x', 'Idle', '0x1F', '12', '1.5e-3', '.5', '1.']) assert.match(w, word, `${id}: ${w}`);
    for (const w of ['a.b', 'x-y', '::']) assert.doesNotMatch(w, word, `${id}: ${w}`);
  }
});

test('folding markers and enter rules compile', () => {
  for (const [id, c] of configs) {
    assert.match('// region pumps', new RegExp(c.folding.markers.start), id);
    assert.match('  // endregion', new RegExp(c.folding.markers.end), id);
    for (const r of c.onEnterRules || []) new RegExp(r.beforeText);
  }
});
