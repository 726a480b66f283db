#!/usr/bin/env node
// stdio bin for the tools MCP server (the tool broker): the same as `cairn mcp tools`.
import { main } from '../dist/cli/main.js';

await main(['mcp', 'tools', ...process.argv.slice(2)]);
