// The floor the upload benchmark compares against: a bare Node HTTP server that writes each
// request body straight from its socket to a file, fsyncs it and answers 200. No parsing,
// no hashing, no database: what the disk and the loopback allow (tools/bench/uploads.ts).
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = process.argv[2];
let n = 0;
const server = createServer((request, response) => {
  const path = join(dir, `raw-${process.pid}-${n++}`);
  pipeline(request, createWriteStream(path))
    .then(async () => {
      const handle = await open(path, 'r');
      await handle.sync();
      await handle.close();
      response.writeHead(200).end('ok');
    })
    .catch(() => response.writeHead(500).end());
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`listening ${port}`);
});
