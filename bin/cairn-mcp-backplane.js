#!/usr/bin/env node
// stdio bin for the backplane MCP server: the same as `cairn mcp backplane`.
import { main } from '../dist/cli/main.js';

await main(['mcp', 'backplane', ...process.argv.slice(2)]);
