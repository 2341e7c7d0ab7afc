// Node preload for the Portkey target (`node --import ./portkey.preload.mjs start-server.js --port=N`),
// only used with BENCH_PORTKEY=1. It makes the Portkey process behave like the bench's own
// children (lib/child.ts): every server it starts listens on 127.0.0.1 only (Portkey's
// serve({ port }) would take every interface), its banner and spinner are dropped, and once
// Portkey listens one JSON line {url, control} goes to stdout, where `control` answers
// process.cpuUsage() for the CPU-per-request figure.
import http from "node:http";
import net from "node:net";

const write = process.stdout.write.bind(process.stdout);
process.stdout.write = () => true;

const LOOPBACK = "127.0.0.1";
const portkeyPort = Number(process.env.BENCH_PORTKEY_PORT);
let portkeyUrl = null;
let controlUrl = null;
const announce = () => {
  if (portkeyUrl && controlUrl) write(`${JSON.stringify({ url: portkeyUrl, control: controlUrl })}\n`);
};

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first] = args;
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    // listen(port[, host][, backlog][, cb]): whatever host was asked, loopback it is
    if (typeof args[1] === "string" || args[1] === undefined) args[1] = LOOPBACK;
    else args.splice(1, 0, LOOPBACK);
    if (Number(first) === portkeyPort) {
      this.once("listening", () => {
        portkeyUrl = `http://${LOOPBACK}:${portkeyPort}`;
        announce();
      });
    }
  } else if (first && typeof first === "object" && first.path === undefined) {
    args[0] = { ...first, host: LOOPBACK };
  }
  return listen.apply(this, args);
};

const control = http.createServer((_req, res) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(process.cpuUsage()));
});
control.listen(0, LOOPBACK, () => {
  controlUrl = `http://${LOOPBACK}:${control.address().port}/`;
  announce();
});
