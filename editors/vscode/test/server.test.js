'use strict';
// Unit tests of server.js: node --test test/server.test.js
const test = require('node:test');
const assert = require('node:assert');
const path = require('path');
const { resolveServer, commandArguments } = require('../server');

const bin = path.join(path.sep, 'opt', 'bin');

test('a bare name is looked up on PATH', () => {
  const want = path.join(bin, 'stateproof');
  const r = resolveServer('stateproof', {
    env: { PATH: [path.join(path.sep, 'nowhere'), bin].join(path.delimiter) },
    platform: 'linux',
    isExecutable: (f) => f === want,
  });
  assert.deepStrictEqual(r, { command: want });
});

test('an empty setting means stateproof on PATH', () => {
  const want = path.join(bin, 'stateproof');
  const r = resolveServer('  ', { env: { PATH: bin }, platform: 'linux', isExecutable: (f) => f === want });
  assert.deepStrictEqual(r, { command: want });
});

test('Windows tries PATHEXT', () => {
  const want = path.join(bin, 'stateproof.EXE');
  const r = resolveServer('stateproof', { env: { PATH: bin, PATHEXT: '.COM;.EXE' }, platform: 'win32', isExecutable: (f) => f === want });
  assert.deepStrictEqual(r, { command: want });
});

test('a missing binary is an error with the install hint', () => {
  const r = resolveServer('stateproof', { env: { PATH: bin }, platform: 'linux', isExecutable: () => false });
  assert.strictEqual(r.command, undefined);
  assert.match(r.error, /cannot find "stateproof" on PATH/);
  assert.match(r.error, /go install github\.com\/stateproof\/stateproof\/cmd\/stateproof@latest/);
  assert.match(r.error, /stateproof\.path/);
});

test('a relative path is taken from the workspace folder', () => {
  const root = path.join(path.sep, 'work', 'proj');
  const want = path.join(root, 'bin', 'stateproof');
  const r = resolveServer('./bin/stateproof', { cwd: root, platform: 'linux', isExecutable: (f) => f === want });
  assert.deepStrictEqual(r, { command: want });
  const missing = resolveServer('./bin/other', { cwd: root, platform: 'linux', isExecutable: (f) => f === want });
  assert.match(missing.error, /does not exist or is not executable/);
  assert.match(missing.error, /go install/);
});

test('~/ is the home directory', () => {
  const want = path.join(path.sep, 'home', 'u', 'go', 'bin', 'stateproof');
  const r = resolveServer('~/go/bin/stateproof', { home: path.join(path.sep, 'home', 'u'), platform: 'linux', isExecutable: (f) => f === want });
  assert.deepStrictEqual(r, { command: want });
});

test('commands send their own arguments, or the active document', () => {
  assert.deepStrictEqual(commandArguments([], 'file:///m.fcstm'), ['file:///m.fcstm']);
  assert.deepStrictEqual(commandArguments(undefined, undefined), []);
  assert.deepStrictEqual(commandArguments(['file:///q.fbmcq', 3], 'file:///m.fcstm'), ['file:///q.fbmcq', 3]);
});
