#!/usr/bin/env node
// stdio bin for the code-context MCP server: the same as `cairn mcp context`.
import { main } from '../dist/cli/main.js';

await main(['mcp', 'context', ...process.argv.slice(2)]);
