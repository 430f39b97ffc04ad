// The Node version check every entry runs first (the svc-docs command, npm start, npm test, npm run
// svc-docs): on an older Node the first Node 22 API an import names fails with a SyntaxError that
// says neither what is needed nor how to get it. The minimum is package.json's `engines`. Plain
// ES5 in CommonJS, so that any Node parses it and gets as far as the message.
'use strict';

var engines = require('../package.json').engines.node;
var minimum = Number(/(\d+)/.exec(engines)[1]);
var major = Number(process.versions.node.split('.')[0]);
if (major < minimum) {
  process.stderr.write(
    'svc-docs: needs Node.js ' +
      minimum +
      ' or newer, but ' +
      process.execPath +
      ' is ' +
      process.version +
      ": in the svc-docs folder run '. scripts/use-node.sh' (it puts Node 24 first on PATH), or install Node " +
      minimum +
      '+\n',
  );
  process.exit(1);
}
