// `npm start`: build only when the sources changed since the last build, then run the
// server in this same process (one Node start, not two).
import { build } from './build.mjs';

if (!build({ ifStale: true })) process.exit(1);
await import('../dist/src/main.js');
