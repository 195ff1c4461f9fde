'use strict';
// A stand-in language server for the editor setup tests: it speaks just
// enough LSP over stdio (Content-Length framing) to be started, to get a
// document and to publish one diagnostic that names the arguments it was
// started with and the document's language, so a test can read them back
// from the editor. FAKE_LSP_LOG, when set, receives every message.
const fs = require('fs');

const log = process.env.FAKE_LSP_LOG;
let buf = Buffer.alloc(0);

function send(msg) {
  const body = Buffer.from(JSON.stringify(msg), 'utf8');
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

function handle(msg) {
  if (log) fs.appendFileSync(log, JSON.stringify(msg) + '\n');
  switch (msg.method) {
    case 'initialize':
      send({ jsonrpc: '2.0', id: msg.id, result: { capabilities: { textDocumentSync: 1 }, serverInfo: { name: 'fake' } } });
      break;
    case 'textDocument/didOpen': {
      const doc = msg.params.textDocument;
      send({
        jsonrpc: '2.0',
        method: 'textDocument/publishDiagnostics',
        params: {
          uri: doc.uri,
          diagnostics: [{
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
            severity: 1,
            source: 'fake',
            message: `args=${process.argv.slice(2).join(' ')} language=${doc.languageId}`,
          }],
        },
      });
      break;
    }
    case 'shutdown':
      send({ jsonrpc: '2.0', id: msg.id, result: null });
      break;
    case 'exit':
      process.exit(0);
  }
}

process.stdin.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  for (;;) {
    const sep = buf.indexOf('\r\n\r\n');
    if (sep < 0) return;
    const m = /Content-Length: *(\d+)/i.exec(buf.slice(0, sep).toString('ascii'));
    if (!m) process.exit(2);
    const len = Number(m[1]);
    if (buf.length < sep + 4 + len) return;
    const body = buf.slice(sep + 4, sep + 4 + len).toString('utf8');
    buf = buf.slice(sep + 4 + len);
    handle(JSON.parse(body));
  }
});
process.stdin.on('end', () => process.exit(0));
