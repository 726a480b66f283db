#!/usr/bin/env node
// stdio bin for the memory MCP server: the same as `cairn mcp memory`.
import { main } from '../dist/cli/main.js';

await main(['mcp', 'memory', ...process.argv.slice(2)]);
