'use strict';
// Tests of extension.js against stand-ins for the vscode API and
// vscode-languageclient (neither runs outside VS Code): what it starts,
// what it says when the binary is missing, and how commands reach the
// server. node --test test/extension.test.js
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');

function fakes(settings, answer) {
  const log = { watchers: [], errors: [], infos: [], commands: new Map(), clients: [], requests: [], documents: [], panels: [], registered: [], picks: [], pick: undefined, saved: [] };
  const vscode = {
    window: {
      createOutputChannel: () => ({ appendLine() {}, show() {}, dispose() {} }),
      showErrorMessage: (msg, ...items) => { log.errors.push({ msg, items }); return Promise.resolve(undefined); },
      showInformationMessage: (msg) => { log.infos.push(msg); return Promise.resolve(undefined); },
      showQuickPick: async (items) => { log.picks.push(items); return log.pick; },
      showTextDocument: async (doc) => doc,
      createWebviewPanel: (id, title) => { const p = { id, title, webview: { html: '' } }; log.panels.push(p); return p; },
      activeTextEditor: { document: { uri: { toString: () => 'file:///w/m.fcstm' } } },
    },
    commands: {
      registerCommand: (name, fn) => {
        if (log.commands.has(name)) throw new Error(`command '${name}' already exists`);
        log.commands.set(name, fn);
        return { dispose() {} };
      },
      executeCommand: async () => undefined,
    },
    workspace: {
      getConfiguration: () => ({ get: (k, d) => (k in settings ? settings[k] : d) }),
      onDidChangeConfiguration: () => ({ dispose() {} }),
      workspaceFolders: undefined,
      textDocuments: [],
      createFileSystemWatcher: (glob) => { const w = { glob, disposed: false, dispose() { w.disposed = true; } }; log.watchers.push(w); return w; },
      openTextDocument: async (d) => { log.documents.push(d); return d; },
    },
    env: { openExternal: async () => true },
    Uri: { parse: (s) => ({ path: s, toString: () => s }) },
    ViewColumn: { Beside: -2 },
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      this.serverOptions = serverOptions;
      this.clientOptions = clientOptions;
      // Stands for the client's ExecuteCommandFeature: registers each
      // command the server announces as a VS Code command.
      this.feature = { register: (data) => {
        log.registered.push(data.registerOptions.commands);
        for (const c of data.registerOptions.commands) vscode.commands.registerCommand(c, () => undefined);
      } };
      log.clients.push(this);
    }
    getFeature(method) { return method === 'workspace/executeCommand' ? this.feature : undefined; }
    async start() { this.running = true; }
    async stop() { await new Promise((r) => setTimeout(r, 10)); this.running = false; }
    async sendRequest(type, params) { log.requests.push({ method: type.method, params }); return answer(params); }
  }
  const client = {
    LanguageClient,
    TransportKind: { stdio: 0 },
    ExecuteCommandRequest: { method: 'workspace/executeCommand', type: { method: 'workspace/executeCommand' } },
  };
  return { vscode, client, log };
}

// load requires a fresh extension.js that sees the stand-ins.
function load(f) {
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (request === 'vscode') return f.vscode;
    if (request === 'vscode-languageclient/node') return f.client;
    return load.call(this, request, ...rest);
  };
  const file = require.resolve('../extension');
  delete require.cache[file];
  try {
    return require(file);
  } finally {
    Module._load = load;
  }
}

function fakeBinary() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stateproof-ext-'));
  const file = path.join(dir, 'stateproof');
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return file;
}

test('a missing binary: a clear message, no client, commands say why', async () => {
  const f = fakes({ path: path.join(os.tmpdir(), 'no-such-dir', 'stateproof') }, () => null);
  const ext = load(f);
  await ext.activate({ subscriptions: [] });
  assert.strictEqual(f.log.clients.length, 0);
  assert.strictEqual(f.log.errors.length, 1);
  assert.match(f.log.errors[0].msg, /does not exist or is not executable/);
  assert.match(f.log.errors[0].msg, /go install github\.com\/stateproof\/stateproof\/cmd\/stateproof@latest/);
  assert.deepStrictEqual(f.log.errors[0].items, ['Open Settings', 'How to install']);
  for (const c of ['stateproof.simulate', 'stateproof.checkQuery', 'stateproof.draw', 'stateproof.restartServer']) {
    assert.ok(f.log.commands.has(c), `${c} registered`);
  }
  await f.log.commands.get('stateproof.simulate')();
  assert.match(f.log.errors[1].msg, /needs the language server, which is not running/);
  assert.strictEqual(f.log.requests.length, 0);
});

test('the client runs `stateproof lsp` over stdio for the three languages and JSON models', async () => {
  const bin = fakeBinary();
  const f = fakes({ path: bin, args: ['--max-input-bytes', '1000'] }, () => null);
  await load(f).activate({ subscriptions: [] });
  assert.strictEqual(f.log.errors.length, 0);
  assert.strictEqual(f.log.clients.length, 1);
  const c = f.log.clients[0];
  assert.strictEqual(c.serverOptions.run.command, bin);
  assert.deepStrictEqual(c.serverOptions.run.args, ['lsp', '--max-input-bytes', '1000']);
  assert.strictEqual(c.serverOptions.run.transport, 0);
  const langs = c.clientOptions.documentSelector.map((s) => s.language);
  assert.deepStrictEqual(langs, ['fcstm', 'fbmcq', 'rsc', 'json']);
  assert.strictEqual(c.clientOptions.synchronize.fileEvents, f.log.watchers[0]);
});

test('a restart stops the client and starts another, without leaking the file watcher', async () => {
  const f = fakes({ path: fakeBinary() }, () => null);
  await load(f).activate({ subscriptions: [] });
  await f.log.commands.get('stateproof.restartServer')();
  assert.strictEqual(f.log.clients.length, 2);
  assert.strictEqual(f.log.watchers.length, 2);
  assert.ok(f.log.watchers[0].disposed, 'the first watcher is disposed');
  assert.ok(!f.log.watchers[1].disposed);
});

test('restarts at the same time leave one server running', async () => {
  const f = fakes({ path: fakeBinary() }, () => null);
  await load(f).activate({ subscriptions: [] });
  const restart = f.log.commands.get('stateproof.restartServer');
  await Promise.all([restart(), restart(), restart()]);
  assert.deepStrictEqual(f.log.clients.map((c) => c.running), [false, false, false, true]);
});

test('commands the server announces under our names are not registered twice', async () => {
  const f = fakes({ path: fakeBinary() }, () => null);
  await load(f).activate({ subscriptions: [] });
  const c = f.log.clients[0];
  // As the client does on initialize with executeCommandProvider.
  c.getFeature('workspace/executeCommand').register({
    id: '1', registerOptions: { commands: ['stateproof.simulate', 'stateproof.draw', 'stateproof.other'] },
  });
  assert.deepStrictEqual(f.log.registered, [['stateproof.other']]);
});

test('commands forward to workspace/executeCommand and show the answer', async () => {
  const f = fakes({ path: fakeBinary() }, (p) => {
    if (p.command === 'stateproof.draw') return '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>';
    if (p.command === 'stateproof.checkQuery') return { markdown: '**property_violated**' };
    return { outcome: 'ok', steps: 2 };
  });
  await load(f).activate({ subscriptions: [] });
  await f.log.commands.get('stateproof.checkQuery')();
  assert.deepStrictEqual(f.log.requests[0], {
    method: 'workspace/executeCommand',
    params: { command: 'stateproof.checkQuery', arguments: ['file:///w/m.fcstm'] },
  });
  assert.deepStrictEqual(f.log.documents[0], { language: 'markdown', content: '**property_violated**' });

  await f.log.commands.get('stateproof.simulate')('file:///w/other.fcstm', { steps: 5 });
  assert.deepStrictEqual(f.log.requests[1].params, { command: 'stateproof.simulate', arguments: ['file:///w/other.fcstm', { steps: 5 }] });
  assert.strictEqual(f.log.documents[1].language, 'json');
  assert.deepStrictEqual(JSON.parse(f.log.documents[1].content), { outcome: 'ok', steps: 2 });

  await f.log.commands.get('stateproof.draw')();
  assert.strictEqual(f.log.panels.length, 1);
  const html = f.log.panels[0].webview.html;
  assert.match(html, /<img [^>]*src="data:image\/svg\+xml;base64,/);
  assert.doesNotMatch(html, /<script>/, 'the SVG is an image, never inline markup');
});

test('generate asks the target, saves the model, then runs on the server', async () => {
  const f = fakes({ path: fakeBinary() }, () => ({ dir: '/w/m-go', files: ['m.go'] }));
  await load(f).activate({ subscriptions: [] });
  const model = { uri: { toString: () => 'file:///w/m.fcstm' }, isDirty: true, save: async () => { f.log.saved.push('m'); model.isDirty = false; return true; } };
  f.vscode.workspace.textDocuments.push(model);
  const gen = f.log.commands.get('stateproof.generate');

  await gen('file:///w/m.fcstm'); // the quick pick dismissed: nothing runs
  assert.deepStrictEqual(f.log.picks, [['c', 'go', 'python', 'typescript']]);
  assert.strictEqual(f.log.requests.length, 0);
  assert.deepStrictEqual(f.log.saved, []);

  f.log.pick = 'go';
  await gen('file:///w/m.fcstm');
  assert.deepStrictEqual(f.log.saved, ['m']);
  assert.deepStrictEqual(f.log.requests[0].params, { command: 'stateproof.generate', arguments: ['file:///w/m.fcstm', { target: 'go' }] });
  // The server's own window/showMessage names the files: no document opens.
  assert.strictEqual(f.log.documents.length, 0);

  await gen('file:///w/m.fcstm', { target: 'c', driver: true }); // a target given: no question
  assert.strictEqual(f.log.picks.length, 2);
  assert.deepStrictEqual(f.log.requests[1].params.arguments, ['file:///w/m.fcstm', { target: 'c', driver: true }]);
});
