#!/usr/bin/env node
// The `cairn` command: runs the compiled CLI (npm run build produces dist/).
import { main } from '../dist/cli/main.js';

await main(process.argv.slice(2));
