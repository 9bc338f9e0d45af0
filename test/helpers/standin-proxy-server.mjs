// Loopback HTTP servers standing in for pilot-agent (/quitquitquit) and linkerd-proxy (/shutdown),
// run in their OWN process (issue #15.7). A server inside the ava worker answers only when the
// worker's event loop gets to it: on a loaded machine that was later than the wrapper's
// `curl --max-time 5`, and the Job wrapper tests failed although the wrapper was right. This
// process does nothing else, so it answers as soon as the kernel schedules it.
//
// Protocol: one command per stdin line, one answer per stdout line, in order.
//   open\t<status>\t<doneFile|->\t<logFile>   starts a listener on a free port; answers the port
//   close\t<port>                         stops it; answers `closed <port>`
// Each request is appended to the listener's log file as a JSON line, synchronously, BEFORE the
// answer is sent: once the client has its answer, the record is on disk. stdin closing (the test
// process ended, however it ended) ends this process.
import { appendFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const servers = new Map();

function open(status, doneFile, logFile) {
  return new Promise((resolve, reject) => {
    const server = createServer((req, res) => {
      const record = {
        method: req.method ?? '',
        path: req.url ?? '',
        programDone: doneFile !== '-' && existsSync(doneFile),
      };
      appendFileSync(logFile, `${JSON.stringify(record)}\n`);
      req.resume();
      res.statusCode = status;
      res.end('OK\n');
    });
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      servers.set(port, server);
      resolve(port);
    });
  });
}

function close(port) {
  const server = servers.get(port);
  servers.delete(port);
  if (!server) return Promise.resolve();
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

// Commands are handled one after the other, so answers come back in the order asked.
let queue = Promise.resolve();
createInterface({ input: process.stdin })
  .on('line', (line) => {
    const [command, ...args] = line.split('\t');
    queue = queue.then(async () => {
      try {
        if (command === 'open')
          process.stdout.write(`${await open(Number(args[0]), args[1], args[2])}\n`);
        else if (command === 'close') {
          await close(Number(args[0]));
          process.stdout.write(`closed ${args[0]}\n`);
        } else process.stdout.write(`error unknown command ${JSON.stringify(line)}\n`);
      } catch (error) {
        process.stdout.write(`error ${String(error).replace(/\n/g, ' ')}\n`);
      }
    });
  })
  .on('close', () => process.exit(0));
