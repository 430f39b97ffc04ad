// The Node version check every entry runs first (the svc-docs command, npm start, npm test, npm run
// svc-docs): on an older Node the first Node 22 API an import names fails with a SyntaxError that
// says neither what is needed nor how to get it. The minimum is package.json's `engines`. Plain
// ES5 in CommonJS, so that any Node parses it and gets as far as the message.
'use strict';

// The minimum is a major and a minor: 22.13 is the first 22 with node:sqlite unflagged, which the
// platform package's webhook store uses (22.5 to 22.12 have it only behind --experimental-sqlite).
var engines = require('../package.json').engines.node;
var wanted = /(\d+)(?:\.(\d+))?/.exec(engines);
var minimum = [Number(wanted[1]), Number(wanted[2] || 0)];
var have = process.versions.node.split('.').map(Number);
if (have[0] < minimum[0] || (have[0] === minimum[0] && have[1] < minimum[1])) {
  process.stderr.write(
    'svc-docs: needs Node.js ' +
      minimum.join('.') +
      ' or newer, but ' +
      process.execPath +
      ' is ' +
      process.version +
      ": in the svc-docs folder run '. scripts/use-node.sh' (it puts Node 24 first on PATH), or install Node " +
      minimum.join('.') +
      '+\n',
  );
  process.exit(1);
}
