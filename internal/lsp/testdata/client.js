// A client written with vscode-languageserver-protocol, the library VS
// Code's own client is built on: it starts `stateproof lsp`, opens a
// broken model, fixes it with an incremental change, asks for hover,
// definition, references, rename, symbols and completion, shuts the
// server down and prints what it saw as one JSON object.
//
// usage: node client.js STATEPROOF HOST.fcstm HOST_TEXT_FILE
'use strict';
const cp = require('child_process');
const fs = require('fs');
const url = require('url');
const rpc = require('vscode-languageserver-protocol/node');

const [bin, hostPath, textFile] = process.argv.slice(2);
const host = url.pathToFileURL(hostPath).href;
const text = fs.readFileSync(textFile, 'utf8');

const child = cp.spawn(bin, ['lsp', '--debounce', '20ms'], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = rpc.createProtocolConnection(
  new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));

const waiters = [];
conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
  for (const w of waiters.slice()) {
    if (p.uri === w.uri && w.ok(p)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(p);
    }
  }
});
function diagnostics(uri, ok) {
  return new Promise((resolve, reject) => {
    waiters.push({ uri, ok, resolve });
    setTimeout(() => reject(new Error('no diagnostics for ' + uri)), 20000);
  });
}
conn.listen();

async function main() {
  const out = {};
  const init = await conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
  out.change = init.capabilities.textDocumentSync.change;
  await conn.sendNotification(rpc.InitializedNotification.type, {});

  const first = diagnostics(host, (p) => p.diagnostics.length > 0);
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type,
    { textDocument: { uri: host, languageId: 'fcstm', version: 1, text } });
  const broken = await first;
  out.broken = broken.diagnostics.map((d) => ({ code: d.code, range: d.range, href: d.codeDescription && d.codeDescription.href }));

  const fixed = diagnostics(host, (p) => p.version === 2);
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: host, version: 2 },
    contentChanges: [{ range: { start: { line: 12, character: 10 }, end: { line: 12, character: 11 } }, text: '' }],
  });
  // inspect's design warnings (W_..., I_...) stay; errors and lints go.
  out.fixed = (await fixed).diagnostics.filter((d) => !/^[WI]_/.test(d.code)).length;

  const doc = { uri: host };
  const hover = await conn.sendRequest(rpc.HoverRequest.type, { textDocument: doc, position: { line: 12, character: 13 } });
  out.hover = hover.contents.value;
  const def = await conn.sendRequest(rpc.DefinitionRequest.type, { textDocument: doc, position: { line: 13, character: 15 } });
  out.definition = def.map((l) => l.uri);
  const refs = await conn.sendRequest(rpc.ReferencesRequest.type, { textDocument: doc, position: { line: 0, character: 8 }, context: { includeDeclaration: true } });
  out.references = refs.length;
  const edit = await conn.sendRequest(rpc.RenameRequest.type, { textDocument: doc, position: { line: 9, character: 10 }, newName: 'Busy' });
  out.renamed = Object.fromEntries(Object.entries(edit.changes).map(([u, es]) => [u, es.length]));
  try {
    await conn.sendRequest(rpc.RenameRequest.type, { textDocument: doc, position: { line: 9, character: 10 }, newName: 'A' });
    out.refused = '';
  } catch (e) {
    out.refused = e.message;
  }
  const syms = await conn.sendRequest(rpc.DocumentSymbolRequest.type, { textDocument: doc });
  out.symbols = syms.map((s) => s.name);
  const comp = await conn.sendRequest(rpc.CompletionRequest.type, { textDocument: doc, position: { line: 12, character: 13 } });
  out.completion = (comp.items || comp).map((i) => i.label);

  await conn.sendRequest(rpc.ShutdownRequest.type);
  await conn.sendNotification(rpc.ExitNotification.type);
  out.exit = await new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  child.kill();
  process.exit(1);
});
