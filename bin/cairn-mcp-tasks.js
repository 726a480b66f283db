#!/usr/bin/env node
// stdio bin for the tasks MCP server: the same as `cairn mcp tasks`.
import { main } from '../dist/cli/main.js';

await main(['mcp', 'tasks', ...process.argv.slice(2)]);
